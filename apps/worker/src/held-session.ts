import type { Lease } from "@handoff/db";
import type { Logger } from "./logger";

/** The pool's record of one session it holds a lease on. */
export interface HeldSession {
  lease: Lease;
  /** Aborted (as `ctx.signal`) when the lease was taken over, or when the worker stops waiting for the driver. */
  stop: AbortController;
  /** Aborted (as `ctx.draining`) when the worker drains. */
  draining: AbortController;
  /** The lease was taken over: nothing may be written for the session any more. */
  lost: boolean;
  /** A release is under way: a renewal that misses this lease is not a takeover. */
  releasing: boolean;
  log: Logger;
}
