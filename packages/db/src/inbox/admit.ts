import type { Db, Tx } from "../client";
import type { NewEvent } from "../events/event";
import { appendEvents } from "../events/append-events";
import { newId } from "../ids";
import { INBOX_COLUMNS, type InboxKind, type InboxMessage } from "./message";

export interface AdmitInput {
  sessionId: string;
  agentId: string;
  /** Root agents also take messages addressed to no agent in particular. */
  isRoot: boolean;
  /** Admit into this running turn; when absent, a new turn is started if anything is admitted. */
  turnId?: string;
  /** Only these kinds (e.g. steering at a step boundary); all kinds when absent. */
  kinds?: readonly InboxKind[];
  /** Fencing token of the lease under which the caller acts. */
  epoch?: number;
  /**
   * Runs inside the admission's transaction once messages are admitted, so what the caller
   * derives from them (the agent's history, status changes) commits or vanishes with them.
   * Events it returns are appended after the admission's own.
   */
  onAdmitted?: (tx: Tx, admission: { turnId: string; messages: InboxMessage[]; newTurn: boolean }) => Promise<NewEvent[] | void>;
}

export interface Admission {
  turnId: string | null;
  /** Admitted messages in arrival order. Empty when nothing was queued. */
  messages: InboxMessage[];
}

/**
 * Admits the agent's queued messages, in arrival order, into a turn: one transaction that
 * marks them admitted with the turn's id, starts the turn when asked to, and appends the
 * events that say so. Rows are locked FOR UPDATE, so a concurrent cancel either lands
 * before (the message is not admitted) or is refused after.
 */
export async function admit(db: Db, input: AdmitInput): Promise<Admission> {
  return db.sql.begin(async (tx) => {
    const rows = await tx<InboxMessage[]>`
      SELECT ${tx.unsafe(INBOX_COLUMNS)} FROM inbox_messages
      WHERE session_id = ${input.sessionId} AND state = 'queued'
        AND (target_agent_id = ${input.agentId} OR (target_agent_id IS NULL AND ${input.isRoot}::boolean))
        ${input.kinds ? tx`AND kind = ANY(${input.kinds as string[]}::inbox_kind[])` : tx``}
      ORDER BY arrival
      FOR UPDATE`;
    if (rows.length === 0) return { turnId: input.turnId ?? null, messages: [] };

    const turnId = input.turnId ?? newId("trn");
    const events: NewEvent[] = [];
    if (!input.turnId) {
      await tx`INSERT INTO turns (id, session_id, agent_id) VALUES (${turnId}, ${input.sessionId}, ${input.agentId})`;
      events.push({ type: "turn.start", agentId: input.agentId, turnId, data: {} });
    }
    const ids = rows.map((r) => r.id);
    const [{ admittedAt }] = (await tx`
      UPDATE inbox_messages SET state = 'admitted', admitted_turn_id = ${turnId}, admitted_at = now()
      WHERE id = ANY(${ids}::text[])
      RETURNING admitted_at AS "admittedAt"`) as unknown as [{ admittedAt: Date }];
    events.push({
      type: "message.admit",
      agentId: input.agentId,
      turnId,
      data: { turnId, messages: rows.map((r) => ({ messageId: r.id, kind: r.kind })) },
    });
    const messages = rows.map((r) => ({ ...r, state: "admitted" as const, admittedTurnId: turnId, admittedAt }));
    const more = await input.onAdmitted?.(tx, { turnId, messages, newTurn: !input.turnId });
    await appendEvents(tx, input.sessionId, [...events, ...(more ?? [])], { epoch: input.epoch });
    return { turnId, messages };
  });
}
