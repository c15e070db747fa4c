import type { Db } from "../client";
import { EVENTS_CHANNEL } from "../events/event";
import { LEASE_CLAIM } from "../lease/lease-events";

export interface ClaimInput {
  workerId: string;
  /** Claim at most this many sessions (the worker's free slots). */
  limit: number;
  ttlMs: number;
  /**
   * Sessions not to claim: those the worker already holds (even if their lease ran out
   * meanwhile, it is still theirs until someone else's claim bumps the epoch) and those it
   * is backing off from.
   */
  exclude?: readonly string[];
}

export interface ClaimedSession {
  sessionId: string;
  /** The new fencing token: every write for the session must carry it. */
  epoch: number;
  /** Owner of the expired lease this claim took over, or `null` when the session was free. */
  takeoverFrom: string | null;
}

/**
 * Claims up to `limit` sessions that have work and no live lease, oldest work first.
 *
 * Work is a queued inbox message, or `status = 'running'`: a worker that died in the middle
 * of a turn leaves no queued message, yet its turn must be continued. A lease is live while
 * `lease_expires_at` is in the future; a released lease has neither owner nor expiry.
 *
 * Locking: `FOR UPDATE OF s SKIP LOCKED` takes the candidate session rows without waiting.
 * Many workers run this at once (every enqueue wakes all of them); a row another claimer
 * (or a fenced write) holds is skipped, not queued on, so claimers never block each other
 * and a session goes to exactly one of them. A row that changed since the snapshot is
 * re-checked after locking, so a lease renewed or claimed meanwhile is not taken. The row
 * lock lasts only for this transaction; afterwards the lease itself (owner, epoch, expiry)
 * is what holds the session. The epoch bump is the fencing token: a previous holder's next
 * fenced write finds a different epoch and is refused.
 *
 * The `lease.claim` event (`LeaseClaimData`) is appended under the new epoch by the same
 * statement: the UPDATE that takes the lease also moves `last_seq` on (as appendEvents does),
 * and the insert and NOTIFY read it back — one round trip, no BEGIN/COMMIT.
 */
export async function claimSessions(db: Db, input: ClaimInput): Promise<ClaimedSession[]> {
  if (input.limit <= 0) return [];
  return db.sql<ClaimedSession[]>`
    WITH ready AS (
      SELECT session_id AS id, min(arrival) AS first_arrival
      FROM inbox_messages WHERE state = 'queued'
      GROUP BY session_id
      UNION ALL
      -- Unfinished turns first: their work is older than anything queued.
      SELECT id, 0::bigint FROM sessions WHERE status = 'running'
    ), candidate AS (
      SELECT s.id, s.lease_owner
      FROM sessions s
      JOIN (SELECT id, min(first_arrival) AS first_arrival FROM ready GROUP BY id) r ON r.id = s.id
      WHERE (s.lease_expires_at IS NULL OR s.lease_expires_at < now())
        AND s.id <> ALL(${input.exclude ?? []}::text[])
      ORDER BY r.first_arrival
      LIMIT ${input.limit}::int
      FOR UPDATE OF s SKIP LOCKED
    ), claimed AS (
      UPDATE sessions s
      SET lease_owner = ${input.workerId}::text,
          lease_epoch = s.lease_epoch + 1,
          lease_expires_at = now() + ${input.ttlMs}::int * interval '1 millisecond',
          last_seq = s.last_seq + 1,
          updated_at = now()
      FROM candidate c
      WHERE s.id = c.id
      RETURNING s.id, s.lease_epoch, c.lease_owner, s.last_seq
    ), appended AS (
      INSERT INTO events (session_id, seq, type, data)
      SELECT id, last_seq, ${LEASE_CLAIM}::text,
             jsonb_build_object('workerId', ${input.workerId}::text, 'epoch', lease_epoch, 'takeoverFrom', lease_owner)
      FROM claimed
    )
    SELECT id AS "sessionId", lease_epoch AS epoch, lease_owner AS "takeoverFrom",
           pg_notify(${EVENTS_CHANNEL}::text, id || ':' || last_seq)
    FROM claimed`.then((rows) => rows.map((r) => ({ sessionId: r.sessionId, epoch: r.epoch, takeoverFrom: r.takeoverFrom })));
}
