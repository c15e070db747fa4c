import type postgres from "postgres";
import type { Sql, Tx } from "../client";
import { HandoffError } from "../errors";
import { redact } from "../redact";
import { EVENTS_CHANNEL, type NewEvent } from "./event";

export interface AppendOptions {
  /** Fencing token: when given, the append (and so its transaction) is refused unless the session's lease epoch still matches. */
  epoch?: number;
}

/**
 * Appends events to a session's log inside the caller's transaction and returns their seqs.
 *
 * Sequence numbers come from `sessions.last_seq`, bumped by an UPDATE that row-locks the
 * session until commit: concurrent appenders queue on that lock, and a rolled-back append
 * gives its numbers back, so seq is gap-free and unique without a global sequence. The
 * NOTIFY is transactional too: listeners hear of the events only once they are committed.
 * Secrets and token-shaped strings are redacted from the data before it is written.
 *
 * The bump, the insert and the NOTIFY are one statement (one round trip): the insert reads
 * the bumped number through the CTE, and a fenced or missing session bumps nothing, so
 * nothing is inserted and nobody is notified.
 */
export async function appendEvents(
  tx: Tx | Sql,
  sessionId: string,
  events: readonly NewEvent[],
  options: AppendOptions = {},
): Promise<number[]> {
  if (events.length === 0) return [];
  const [row] = await tx<{ lastSeq: number }[]>`
    WITH ${appendEventsCtes(tx, sessionId, events, options)}
    SELECT last_seq AS "lastSeq", ${notifyAppended(tx, sessionId)} FROM bumped`;
  if (!row) throw await refusal(tx, sessionId, options.epoch);
  const first = row.lastSeq - events.length + 1;
  return events.map((_, i) => first + i);
}

/**
 * The CTEs `bumped` (the session's new `last_seq`, no row when fenced, missing or gated off)
 * and `appended` (the events, numbered up to it), for a statement of the caller's that
 * appends events as part of something else. `onlyIf` gates the append on a condition over
 * the statement's other CTEs. Pair with `notifyAppended` over `bumped`.
 */
export function appendEventsCtes(
  sql: Tx | Sql,
  sessionId: string,
  events: readonly NewEvent[],
  options: AppendOptions & { onlyIf?: postgres.Fragment } = {},
): postgres.Fragment {
  const n = events.length;
  return sql`
    bumped AS (
      UPDATE sessions SET last_seq = last_seq + ${n}::int, updated_at = now()
      WHERE id = ${sessionId}::text
        ${options.epoch === undefined ? sql`` : sql`AND lease_epoch = ${options.epoch}::bigint`}
        ${options.onlyIf === undefined ? sql`` : sql`AND ${options.onlyIf}`}
      RETURNING last_seq
    ), appended AS (
      INSERT INTO events (session_id, seq, agent_id, turn_id, type, data)
      SELECT ${sessionId}::text, b.last_seq - ${n}::int + u.ord, u.agent_id, u.turn_id, u.type, u.data::jsonb
      FROM bumped b, unnest(
        ${events.map((e) => e.agentId ?? null)}::text[], ${events.map((e) => e.turnId ?? null)}::text[],
        ${events.map((e) => e.type)}::text[], ${events.map((e) => redact(JSON.stringify(e.data ?? {})))}::text[]
      ) WITH ORDINALITY AS u(agent_id, turn_id, type, data, ord)
    )`;
}

/** The NOTIFY that tells listeners of the events appended by `appendEventsCtes` (a select-list expression over `bumped`). */
export function notifyAppended(sql: Tx | Sql, sessionId: string): postgres.Fragment {
  return sql`pg_notify(${EVENTS_CHANNEL}, ${sessionId}::text || ':' || last_seq)`;
}

async function refusal(tx: Tx | Sql, sessionId: string, epoch: number | undefined): Promise<HandoffError> {
  const [found] = await tx<{ leaseEpoch: number }[]>`
    SELECT lease_epoch AS "leaseEpoch" FROM sessions WHERE id = ${sessionId}::text`;
  if (!found) return new HandoffError("NOT_FOUND", `session ${sessionId} does not exist`, { sessionId });
  return new HandoffError(
    "FENCED",
    `write refused: session ${sessionId} is now held under lease epoch ${found.leaseEpoch}, not ${epoch}`,
    { sessionId, epoch, currentEpoch: found.leaseEpoch },
  );
}
