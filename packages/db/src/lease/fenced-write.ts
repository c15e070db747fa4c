import type { Sql } from "../client";
import { HandoffError } from "../errors";
import { appendedCte, notifyAppended } from "../events/append-events";
import type { NewEvent } from "../events/event";
import type { Lease } from "./lease";
import { queryParts, sqlPart, type SqlPart } from "./sql-part";

export interface FencedWrite {
  /**
   * Data-modifying statements that must happen only under the lease. Each reads the one-row
   * CTE `fence` (`INSERT … SELECT … FROM fence`, `UPDATE … FROM fence WHERE …`): when the
   * lease is lost, `fence` is empty and none of them touches a row. No two may update the
   * same row (PostgreSQL would apply only one of the two).
   */
  writes?: readonly SqlPart[];
  /** Appended to the session's log, in order, with the writes. */
  events?: readonly NewEvent[];
  /** Extra output columns, read at the statement's snapshot (e.g. `EXISTS (…) AS "queued"`). */
  select?: SqlPart;
}

export interface FencedWriteResult<R> {
  seqs: number[];
  /** The `select` columns. */
  row: R;
}

/**
 * Writes, their events and the NOTIFY in one statement, fenced by the lease epoch: a single
 * round trip with no BEGIN/COMMIT, atomic as every statement is. The fence is the same
 * bump of `sessions.last_seq` that appendEvents does, so it row-locks the session until the
 * statement commits (seq stays gap-free, and a claim cannot move the epoch underneath); a
 * worker whose lease was taken over bumps nothing, writes nothing and gets FENCED.
 *
 * The hot path of a model step (docs/decisions/0014-one-statement-per-step-write.md).
 */
export async function fencedWrite<R extends object = Record<string, never>>(
  sql: Sql,
  lease: Lease,
  write: FencedWrite,
): Promise<FencedWriteResult<R>> {
  const events = write.events ?? [];
  const n = events.length;
  const parts: (SqlPart | string)[] = [
    sqlPart`WITH fence AS (
      UPDATE sessions SET last_seq = last_seq + ${n}::int`,
    n > 0 ? ", updated_at = now()" : "",
    sqlPart`
      WHERE id = ${lease.sessionId}::text AND lease_epoch = ${lease.epoch}::bigint
      RETURNING last_seq)`,
  ];
  (write.writes ?? []).forEach((w, i) => parts.push(`, w${i} AS (`, w, ")"));
  if (n > 0) parts.push(", ", ...appendedCte(lease.sessionId, events, "fence"));
  parts.push(`\nSELECT last_seq AS "lastSeq"`);
  if (n > 0) parts.push(", ", notifyAppended(lease.sessionId));
  if (write.select) parts.push(", ", write.select);
  parts.push(" FROM fence");
  const [row] = await queryParts<{ lastSeq: number } & R>(sql, parts);
  if (!row) throw await refusal(sql, lease);
  const first = row.lastSeq - n + 1;
  return { seqs: events.map((_, i) => first + i), row };
}

async function refusal(sql: Sql, lease: Lease): Promise<HandoffError> {
  const [found] = await sql<{ leaseEpoch: number }[]>`
    SELECT lease_epoch AS "leaseEpoch" FROM sessions WHERE id = ${lease.sessionId}::text`;
  if (!found) return new HandoffError("NOT_FOUND", `session ${lease.sessionId} does not exist`, { sessionId: lease.sessionId });
  return new HandoffError(
    "FENCED",
    `write refused: worker ${lease.workerId} no longer holds session ${lease.sessionId} at epoch ${lease.epoch}`,
    { ...lease, currentEpoch: found.leaseEpoch },
  );
}
