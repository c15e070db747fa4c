import { isHandoffError, releaseLease, type Db } from "@handoff/db";
import type { DriveContext, SessionDriver } from "./driver";
import type { HeldSession } from "./held-session";
import { sleep } from "./sleep";

/**
 * How driving a held session ended: the pool forgets it, except when drained (released in
 * bulk); a session released after a driver error is not claimed again by this worker for a while.
 */
export type DriveOutcome = "released" | "failed" | "lost" | "drained";

export interface DriveDeps {
  db: Db;
  driver: SessionDriver;
  pollMs: number;
  observeStep(seconds: number): void;
  /** The lease was found taken over (a refused write or release). */
  onLost(held: HeldSession, reason: string, error?: unknown): void;
}

/**
 * Calls the driver until the session can be released: when `drive` returns, the lease is
 * given back unless messages were queued meanwhile, in which case the driver runs again.
 * A FENCED error from the driver means the lease was taken over: stop, write nothing more.
 * Any other error releases the session (the next claim tries again) rather than retrying
 * here in a loop.
 */
export async function driveSession(held: HeldSession, deps: DriveDeps): Promise<DriveOutcome> {
  const ctx: DriveContext = {
    db: deps.db,
    lease: held.lease,
    signal: held.stop.signal,
    draining: held.draining.signal,
    log: held.log,
    observeStep: deps.observeStep,
  };
  let unmovedQueueHead: string | null = null;
  for (;;) {
    let failed = false;
    try {
      await deps.driver.drive(ctx);
    } catch (e) {
      if (isHandoffError(e, "FENCED")) {
        deps.onLost(held, "write refused (FENCED)", e);
        return "lost";
      }
      if (held.stop.signal.aborted) return held.lost ? "lost" : "drained";
      held.log.error({ err: e }, "driver failed; releasing the session for another attempt");
      failed = true;
    }
    if (held.lost) return "lost";
    if (held.draining.signal.aborted || held.stop.signal.aborted) return "drained";

    held.releasing = true;
    const outcome = await releaseLease(deps.db, held.lease, { reason: failed ? "error" : "idle" });
    if (outcome.released) {
      held.log.debug("lease released");
      return failed ? "failed" : "released";
    }
    held.releasing = false;
    if (outcome.reason === "fenced") {
      deps.onLost(held, "release refused");
      return "lost";
    }
    // Messages arrived while the driver ran: drive again under the same lease. A driver that
    // returns without admitting anything would spin here; back off and say so instead.
    if (outcome.oldestQueuedId === unmovedQueueHead) {
      held.log.warn({ queued: outcome.queued }, "driver returned with messages still queued; retrying after a pause");
      await sleep(deps.pollMs, [held.stop.signal, held.draining.signal]);
    }
    unmovedQueueHead = outcome.oldestQueuedId;
  }
}
