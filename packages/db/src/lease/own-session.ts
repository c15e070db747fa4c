import type { Db } from "../client";
import { appendEvents } from "../events/append-events";
import { releaseLease } from "../sql/release-lease";
import type { Lease } from "./lease";
import { LEASE_CLAIM, type LeaseClaimData } from "./lease-events";

/**
 * Takes the lease of one named session, whatever its inbox holds, when no live lease is on
 * it: how an in-process run (`handoff run`) owns the session it created before it enqueues,
 * so a service worker woken by the enqueue finds it held. Null when someone holds it.
 * Like a pool claim, it bumps the epoch and says so in the log (`lease.claim`).
 */
export async function claimSessionById(db: Db, sessionId: string, workerId: string, ttlMs: number): Promise<Lease | null> {
  return db.sql.begin(async (tx) => {
    const [row] = await tx<{ epoch: number; previous: string | null }[]>`
      UPDATE sessions s
      SET lease_owner = ${workerId}, lease_epoch = s.lease_epoch + 1,
          lease_expires_at = now() + make_interval(secs => ${ttlMs / 1000}::float8)
      FROM (SELECT id, lease_owner FROM sessions WHERE id = ${sessionId} FOR UPDATE) old
      WHERE s.id = old.id AND (s.lease_expires_at IS NULL OR s.lease_expires_at < now())
      RETURNING s.lease_epoch AS epoch, old.lease_owner AS previous`;
    if (!row) return null;
    const data: LeaseClaimData = { workerId, epoch: row.epoch, takeoverFrom: row.previous };
    await appendEvents(tx, sessionId, [{ type: LEASE_CLAIM, data: { ...data } }], { epoch: row.epoch });
    return { sessionId, epoch: row.epoch, workerId };
  }) as Promise<Lease | null>;
}

/** Extends a held lease; false when it was taken over (the holder must stop writing). */
export async function renewSessionLease(db: Db, lease: Lease, ttlMs: number): Promise<boolean> {
  const rows = await db.sql`
    UPDATE sessions SET lease_expires_at = now() + make_interval(secs => ${ttlMs / 1000}::float8)
    WHERE id = ${lease.sessionId} AND lease_epoch = ${lease.epoch}::bigint
    RETURNING id`;
  return rows.length > 0;
}

/**
 * Gives an in-process owner's lease up at once, as the pool does (the epoch is bumped), even
 * with messages still queued — then wakes the workers so one of them takes those.
 */
export async function releaseSessionLease(db: Db, lease: Lease): Promise<void> {
  await releaseLease(db, lease, { reason: "drain" });
  await db.sql`SELECT pg_notify('handoff_inbox', ${lease.sessionId})`;
}
