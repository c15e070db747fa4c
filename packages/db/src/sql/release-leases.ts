import type { Db } from "../client";
import { appendEvents } from "../events/append-events";
import { INBOX_CHANNEL } from "../inbox/message";
import type { Lease } from "../lease/lease";
import { LEASE_RELEASE, type LeaseReleaseData } from "../lease/lease-events";

/**
 * A draining worker gives back every session it holds, whatever is queued or unfinished, in
 * one transaction, and NOTIFYs the inbox channel for each so another worker claims it at
 * once instead of waiting for the lease to expire. Returns the ids released; a lease that
 * was taken over meanwhile is skipped.
 *
 * Locking: the held rows are locked FOR UPDATE at their epochs (waiting for this worker's own
 * last writes, never for a claimer's, which would have changed the epoch), then released with
 * the epoch bumped, so a write still in flight under a released lease is refused. The NOTIFY
 * is delivered on commit, when the sessions are already free.
 */
export async function releaseLeases(db: Db, leases: readonly Lease[]): Promise<string[]> {
  if (leases.length === 0) return [];
  return db.sql.begin(async (tx) => {
    const rows = await tx<{ id: string; epoch: number; workerId: string }[]>`
      SELECT s.id, s.lease_epoch AS epoch, s.lease_owner AS "workerId"
      FROM sessions s
      JOIN unnest(${leases.map((l) => l.sessionId)}::text[], ${leases.map((l) => l.epoch)}::bigint[],
                  ${leases.map((l) => l.workerId)}::text[]) AS held(id, epoch, owner)
        ON s.id = held.id AND s.lease_epoch = held.epoch AND s.lease_owner = held.owner
      ORDER BY s.id
      FOR UPDATE OF s`;
    for (const row of rows) {
      const data: LeaseReleaseData = { workerId: row.workerId, epoch: row.epoch, reason: "drain" };
      await appendEvents(tx, row.id, [{ type: LEASE_RELEASE, data: { ...data } }], { epoch: row.epoch });
    }
    const ids = rows.map((r) => r.id);
    await tx`
      UPDATE sessions SET lease_owner = NULL, lease_expires_at = NULL, lease_epoch = lease_epoch + 1
      WHERE id = ANY(${ids}::text[])`;
    await tx`SELECT pg_notify(${INBOX_CHANNEL}::text, id) FROM unnest(${ids}::text[]) AS released(id)`;
    return ids;
  }) as Promise<string[]>;
}
