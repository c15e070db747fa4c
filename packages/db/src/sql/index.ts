/**
 * `@handoff/db/sql`: the pool's raw SQL (claims, leases, scrape-time reads) without the rest
 * of the package, so the web app can import it without bundling migrations or embedded Postgres.
 */
export { claimSessions, type ClaimInput, type ClaimedSession } from "./claim-sessions";
export { renewLeases } from "./renew-leases";
export { releaseLease, type ReleaseOutcome, type ReleaseOptions } from "./release-lease";
export { releaseLeases } from "./release-leases";
export { findStuckLeases, type StuckLease } from "./find-stuck-leases";
export { readQueueStats, type QueueStats } from "./read-queue-stats";
export { readWorkers, type WorkerRow } from "./read-workers";
