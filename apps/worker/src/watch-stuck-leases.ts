import { findStuckLeases, type Db } from "@handoff/db";
import type { Logger } from "./logger";

/**
 * Reports leases that expired more than three TTLs ago and were never taken: work that no
 * worker is picking up. Each one is logged once per worker, as a warning an operator sees.
 */
export function watchStuckLeases(db: Db, log: Logger, ttlMs: number): () => Promise<void> {
  const reported = new Set<string>();
  return async () => {
    const { total, leases } = await findStuckLeases(db.sql, { olderThanMs: 3 * ttlMs });
    for (const lease of leases) {
      const key = `${lease.sessionId}@${lease.epoch}`;
      if (reported.has(key)) continue;
      reported.add(key);
      log.warn(
        { sessionId: lease.sessionId, owner: lease.owner, epoch: lease.epoch, expiredSeconds: lease.expiredSeconds, total },
        "stuck lease: expired more than 3 TTLs ago and not taken over",
      );
    }
  };
}
