import type { Sql, Tx } from "../client";
import { HandoffError } from "../errors";
import { queryParts, sqlPart, type SqlPart } from "../lease/sql-part";
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
  const [row] = await queryParts<{ lastSeq: number }>(tx, [
    "WITH ",
    ...bumpedCte(sessionId, events.length, options),
    ", ",
    ...appendedCte(sessionId, events, "bumped"),
    `\nSELECT last_seq AS "lastSeq", `,
    notifyAppended(sessionId),
    " FROM bumped",
  ]);
  if (!row) throw await refusal(tx, sessionId, options.epoch);
  const first = row.lastSeq - events.length + 1;
  return events.map((_, i) => first + i);
}

/**
 * The CTE `bumped`: the session's `last_seq` moved on by `n` (the row lock that keeps seq
 * gap-free), returning the new value — no row when the session is missing, fenced (`epoch`)
 * or `onlyIf` (SQL over the statement's other CTEs) is false.
 */
export function bumpedCte(sessionId: string, n: number, options: AppendOptions & { onlyIf?: string } = {}): (SqlPart | string)[] {
  return [
    sqlPart`bumped AS (
      UPDATE sessions SET last_seq = last_seq + ${n}::int, updated_at = now()
      WHERE id = ${sessionId}::text`,
    options.epoch === undefined ? "" : sqlPart` AND lease_epoch = ${options.epoch}::bigint`,
    options.onlyIf === undefined ? "" : ` AND ${options.onlyIf}`,
    "\n      RETURNING last_seq)",
  ];
}

/**
 * The CTE `appended`: the events, redacted, numbered up to `from.last_seq` (`from` a CTE of
 * one row, `bumped` or fencedWrite's `fence`), inserted only when `from` has its row.
 */
export function appendedCte(sessionId: string, events: readonly NewEvent[], from: "bumped" | "fence"): (SqlPart | string)[] {
  const n = events.length;
  return [
    sqlPart`appended AS (
      INSERT INTO events (session_id, seq, agent_id, turn_id, type, data)
      SELECT ${sessionId}::text, f.last_seq - ${n}::int + u.ord, u.agent_id, u.turn_id, u.type, u.data::jsonb
      FROM `,
    from,
    sqlPart` f, unnest(
        ${events.map((e) => e.agentId ?? null)}::text[], ${events.map((e) => e.turnId ?? null)}::text[],
        ${events.map((e) => e.type)}::text[], ${events.map((e) => redact(JSON.stringify(e.data ?? {})))}::text[]
      ) WITH ORDINALITY AS u(agent_id, turn_id, type, data, ord))`,
  ];
}

/** The NOTIFY that tells listeners of appended events: a select-list expression over a CTE with `last_seq`. */
export function notifyAppended(sessionId: string): SqlPart {
  return sqlPart`pg_notify(${EVENTS_CHANNEL}::text, ${sessionId}::text || ':' || last_seq)`;
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
