/**
 * Events the pool appends to a session's log. They tie every later write to the worker and
 * epoch that made it: a write between a `lease.claim` and the next `lease.release` or
 * `lease.claim` was made under that claim's epoch, because every write is fenced by it.
 */
export const LEASE_CLAIM = "lease.claim";
export const LEASE_RELEASE = "lease.release";

export interface LeaseClaimData {
  workerId: string;
  epoch: number;
  /** The worker whose lease had expired when this one was taken, or `null` for a free session. */
  takeoverFrom: string | null;
}

export interface LeaseReleaseData {
  workerId: string;
  /** The epoch that was held; the release bumps it, so later writes under it are refused. */
  epoch: number;
  reason: "idle" | "drain" | "error";
}
