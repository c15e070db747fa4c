import type { Db, Lease } from "@handoff/db";

/** What the pool hands a driver for one claimed session. */
export interface DriveContext {
  db: Db;
  lease: Lease;
  /**
   * Aborted when the lease is lost (a renewal or write was refused) or the worker is being
   * killed: stop at once and write nothing more for this session.
   */
  signal: AbortSignal;
  /** Aborted when the worker drains (SIGTERM): finish or abandon the current step at a safe boundary, then return. */
  draining: AbortSignal;
  /** Structured logger bound to the session (and worker) ids. */
  log: DriverLogger;
  /** Reports the duration of one model step, for the step latency histogram. */
  observeStep(seconds: number): void;
}

export interface DriverLogger {
  info(fields: Record<string, unknown>, msg: string): void;
  warn(fields: Record<string, unknown>, msg: string): void;
  error(fields: Record<string, unknown>, msg: string): void;
  child(bindings: Record<string, unknown>): DriverLogger;
}

/**
 * Runs a session's agents. The pool knows nothing of what a driver does: it claims a
 * session, calls `drive`, and when `drive` returns it releases the lease unless more
 * work was queued meanwhile (then it calls `drive` again). Every write a driver makes
 * must go through `fencedTransaction(db, lease, …)` or carry `lease.epoch`.
 */
export interface SessionDriver {
  drive(ctx: DriveContext): Promise<void>;
}
