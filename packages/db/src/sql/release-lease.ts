import type { Db } from "../client";
import { appendEvents } from "../events/append-events";
import type { Lease } from "../lease/lease";
import { LEASE_RELEASE, type LeaseReleaseData } from "../lease/lease-events";

export type ReleaseOutcome =
  /** The lease is gone; the session is free for any worker. */
  | { released: true }
  /** Messages were queued meanwhile: the lease is kept and the caller drives the session again. */
  | { released: false; reason: "queued"; queued: number; oldestQueuedId: string }
  /** The lease had been taken over: there was nothing to release. */
  | { released: false; reason: "fenced" };

export interface ReleaseOptions {
  /** `"error"` and `"drain"` (the holder is going away) release even with messages queued (the driver failed; another attempt is up to the next claim). */
  reason?: "idle" | "error" | "drain";
}

/**
 * Gives a session back once its driver has returned, at the caller's epoch only, and only
 * when nothing is queued for it.
 *
 * Locking: the session row is locked first (FOR UPDATE), then the queue is read by a second
 * statement, which under READ COMMITTED sees everything committed up to the lock. An enqueue
 * appends its event under the same row lock, so it either committed before (and its message
 * is seen here: the lease is kept) or waits for this release to commit (and its NOTIFY then
 * finds the session free). A message can never be stranded behind a lease nobody drives.
 *
 * The release bumps the epoch: a write still in flight under the released lease is refused.
 */
export async function releaseLease(db: Db, lease: Lease, options: ReleaseOptions = {}): Promise<ReleaseOutcome> {
  const reason = options.reason ?? "idle";
  return db.sql.begin(async (tx) => {
    const held = await tx`
      SELECT 1 FROM sessions
      WHERE id = ${lease.sessionId}::text AND lease_epoch = ${lease.epoch}::bigint AND lease_owner = ${lease.workerId}::text
      FOR UPDATE`;
    if (held.length === 0) return { released: false, reason: "fenced" } as const;
    if (reason === "idle") {
      const [queue] = await tx<{ queued: number; oldestQueuedId: string | null }[]>`
        SELECT count(*)::int AS queued, (array_agg(id ORDER BY arrival))[1] AS "oldestQueuedId"
        FROM inbox_messages WHERE session_id = ${lease.sessionId}::text AND state = 'queued'`;
      if (queue && queue.queued > 0) {
        return { released: false, reason: "queued", queued: queue.queued, oldestQueuedId: queue.oldestQueuedId! } as const;
      }
    }
    const data: LeaseReleaseData = { workerId: lease.workerId, epoch: lease.epoch, reason };
    await appendEvents(tx, lease.sessionId, [{ type: LEASE_RELEASE, data: { ...data } }], { epoch: lease.epoch });
    await tx`
      UPDATE sessions SET lease_owner = NULL, lease_expires_at = NULL, lease_epoch = lease_epoch + 1
      WHERE id = ${lease.sessionId}::text`;
    return { released: true } as const;
  }) as Promise<ReleaseOutcome>;
}
