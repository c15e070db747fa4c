import { claimSessionById, newId, releaseSessionLease, renewSessionLease, type Db, type Lease } from "@handoff/db";
import type { DriverLogger, SessionDriver } from "@handoff/worker/driver";

export interface OwnedSession {
  lease: Lease;
  /** Drives the session until nothing is admissible (again while work keeps arriving). */
  driveToIdle(): Promise<void>;
  /** Stops renewing and gives the lease up. */
  release(): Promise<void>;
}

/**
 * An in-process owner of one session (`handoff run`, tests): claims its lease, renews it
 * every third of the TTL, and drives it with the given driver. Null when another worker
 * holds the session.
 */
export async function ownSession(
  db: Db,
  sessionId: string,
  driver: SessionDriver,
  options: { ttlMs?: number; log?: DriverLogger; signal?: AbortSignal } = {},
): Promise<OwnedSession | null> {
  const ttlMs = options.ttlMs ?? 10_000;
  const lease = await claimSessionById(db, sessionId, newId("wrk"), ttlMs);
  if (!lease) return null;
  const lost = new AbortController();
  const renew = setInterval(() => {
    renewSessionLease(db, lease, ttlMs).then(
      (held) => held || lost.abort(new Error("lease lost")),
      () => {},
    );
  }, ttlMs / 3);
  const signal = options.signal ? AbortSignal.any([options.signal, lost.signal]) : lost.signal;
  return {
    lease,
    async driveToIdle() {
      for (;;) {
        await driver.drive({
          db,
          lease,
          signal,
          draining: new AbortController().signal,
          log: options.log ?? silentLogger,
          observeStep: () => {},
        });
        if (signal.aborted) return;
        const [queued] = await db.sql`
          SELECT 1 FROM inbox_messages WHERE session_id = ${sessionId} AND state = 'queued' LIMIT 1`;
        if (!queued) return;
      }
    },
    async release() {
      clearInterval(renew);
      await releaseSessionLease(db, lease);
    },
  };
}

export const silentLogger: DriverLogger = {
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};
