import { renewLeases, type Db, type Lease } from "@handoff/db";
import type { Logger } from "./logger";
import { every, type Periodic } from "./periodic";

export interface LeaseRenewerOptions {
  db: Db;
  ttlMs: number;
  /** The leases to renew now (the pool's held sessions). */
  leases(): Lease[];
  /** Called for each lease whose renewal was refused: it was taken over. */
  onRefused(lease: Lease): void;
  log: Logger;
}

/**
 * Renews every held lease in one statement each third of the TTL, so two renewals can be
 * lost to a slow database before a lease expires. A failed query (the database is
 * unreachable) refuses nothing: the epoch, checked by every write, still protects the
 * session if the lease expires meanwhile and another worker takes it.
 */
export function startLeaseRenewer(options: LeaseRenewerOptions): Periodic {
  return every(Math.max(10, Math.floor(options.ttlMs / 3)), async () => {
    const leases = options.leases();
    if (leases.length === 0) return;
    try {
      const renewed = await renewLeases(options.db, leases, options.ttlMs);
      for (const lease of leases) if (!renewed.has(lease.sessionId)) options.onRefused(lease);
    } catch (e) {
      options.log.warn({ err: e }, "lease renewal failed; will retry");
    }
  });
}
