import type { Db } from "../client";
import type { Lease } from "../lease/lease";

/**
 * Extends the expiry of every lease a worker holds, in one statement, and returns the ids of
 * the sessions renewed. A session missing from the result was taken over (its epoch moved
 * on): the caller must stop driving it and write nothing more for it.
 *
 * Locking: a plain UPDATE, which waits for a row lock rather than skipping it. The holder of
 * such a lock is either this worker's own fenced write (renew right after it) or a claimer
 * taking the session over (then the epoch no longer matches and the renewal is refused, as it
 * must be); skipping would let a live lease lapse just because a write was in flight. No lock
 * cycle can form: claimers never wait (SKIP LOCKED) and a fenced write locks one session.
 * The epoch decides, not the expiry: a lease that ran out but was not taken is still ours.
 */
export async function renewLeases(db: Db, leases: readonly Lease[], ttlMs: number): Promise<Set<string>> {
  if (leases.length === 0) return new Set();
  const rows = await db.sql<{ id: string }[]>`
    UPDATE sessions s
    SET lease_expires_at = now() + ${ttlMs}::int * interval '1 millisecond'
    FROM unnest(${leases.map((l) => l.sessionId)}::text[], ${leases.map((l) => l.epoch)}::bigint[],
                ${leases.map((l) => l.workerId)}::text[]) AS held(id, epoch, owner)
    WHERE s.id = held.id AND s.lease_epoch = held.epoch AND s.lease_owner = held.owner
    RETURNING s.id`;
  return new Set(rows.map((r) => r.id));
}
