import { claimSessions, releaseLeases, type ClaimedSession, type Db, type Lease } from "@handoff/db";
import { Cooldown } from "./cooldown";
import { driveSession, type DriveOutcome } from "./drive-session";
import type { SessionDriver } from "./driver";
import type { HeldSession } from "./held-session";
import { startLeaseRenewer } from "./lease-renewer";
import type { Logger } from "./logger";
import type { WorkerMetrics } from "./metrics";
import type { Periodic } from "./periodic";
import { Wakeup } from "./wakeup";

export interface SessionPoolOptions {
  db: Db;
  workerId: string;
  driver: SessionDriver;
  concurrency: number;
  ttlMs: number;
  pollMs: number;
  log: Logger;
  metrics: WorkerMetrics;
}

/** After the drain grace, how long aborted drivers get to unwind before their leases are released anyway. */
const ABORT_UNWIND_MS = 1_000;

/**
 * Up to `concurrency` sessions held under leases and driven at once. A claim loop fills free
 * slots when woken (an inbox NOTIFY, a released slot) or every `pollMs`; a renewer keeps the
 * leases alive; `drain()` stops claiming, lets drivers reach a safe boundary and hands every
 * lease back at once.
 */
export class SessionPool {
  readonly #o: SessionPoolOptions;
  readonly #held = new Map<string, { held: HeldSession; done: Promise<void> }>();
  readonly #wakeup = new Wakeup();
  #stopping = false;
  #loop: Promise<void> = Promise.resolve();
  #renewer: Periodic | null = null;
  readonly #cooldown: Cooldown;

  constructor(options: SessionPoolOptions) {
    this.#o = options;
    this.#cooldown = new Cooldown(options.pollMs);
  }

  start(): void {
    this.#renewer = startLeaseRenewer({
      db: this.#o.db,
      ttlMs: this.#o.ttlMs,
      leases: () => this.leases(),
      onRefused: (lease) => this.#renewalRefused(lease),
      log: this.#o.log,
    });
    this.#loop = this.#claimLoop();
  }

  /** Something may be claimable: run a claim round now (bursts collapse into one). */
  wake(): void {
    this.#wakeup.wake();
  }

  leases(): Lease[] {
    return [...this.#held.values()].filter(({ held }) => !held.lost).map(({ held }) => held.lease);
  }

  /**
   * Stops claiming, aborts `ctx.draining` for every driver and waits up to `graceMs` for them
   * to return, then aborts `ctx.signal` and waits a little more. Releases every lease still
   * held in one transaction (with a NOTIFY each) and returns the released session ids.
   */
  async drain(graceMs: number): Promise<string[]> {
    this.#stopping = true;
    this.#wakeup.wake();
    await this.#loop;
    const entries = [...this.#held.values()];
    for (const { held } of entries) held.draining.abort();
    const all = Promise.allSettled(entries.map((e) => e.done));
    if (!(await settlesWithin(all, graceMs))) {
      this.#o.log.warn({ graceMs }, "drivers did not stop within the drain grace; aborting them");
      for (const { held } of entries) held.stop.abort(new Error("worker draining: grace period over"));
      await settlesWithin(all, ABORT_UNWIND_MS);
    }
    // No renewal may race the release: a renewal refused by it would look like a takeover.
    await this.#renewer?.stop();
    const leases = this.leases();
    const released = await releaseLeases(this.#o.db, leases);
    this.#o.log.info({ released: released.length, held: leases.length }, "leases released for drain");
    this.#held.clear();
    this.#o.metrics.sessionsHeld.set(0);
    return released;
  }

  async #claimLoop(): Promise<void> {
    while (!this.#stopping) {
      const free = this.#o.concurrency - this.#held.size;
      if (free > 0) {
        try {
          const claimed = await claimSessions(this.#o.db, {
            workerId: this.#o.workerId,
            limit: free,
            ttlMs: this.#o.ttlMs,
            exclude: [...this.#held.keys(), ...this.#cooldown.active()],
          });
          for (const c of claimed) this.#drive(c);
        } catch (e) {
          this.#o.log.error({ err: e }, "claim failed; will retry");
        }
      }
      if (this.#stopping) break;
      await this.#wakeup.wait(this.#o.pollMs);
    }
  }

  #drive(claim: ClaimedSession): void {
    const { metrics, log: poolLog } = this.#o;
    const lease: Lease = { sessionId: claim.sessionId, epoch: claim.epoch, workerId: this.#o.workerId };
    const log = poolLog.child({ sessionId: claim.sessionId, epoch: claim.epoch });
    metrics.claims.inc();
    if (claim.takeoverFrom) {
      metrics.takeovers.inc();
      log.warn({ takeoverFrom: claim.takeoverFrom }, "took over an expired lease");
    } else {
      log.debug("lease claimed");
    }
    const held: HeldSession = {
      lease,
      stop: new AbortController(),
      draining: new AbortController(),
      lost: false,
      releasing: false,
      log,
    };
    const entry = { held, done: Promise.resolve() };
    this.#held.set(claim.sessionId, entry);
    entry.done = driveSession(held, {
      db: this.#o.db,
      driver: this.#o.driver,
      pollMs: this.#o.pollMs,
      observeStep: (seconds) => metrics.stepSeconds.observe(seconds),
      onLost: (h, reason, error) => this.#lost(h, reason, error),
    }).then(
      (outcome: DriveOutcome) => {
        if (outcome === "failed") this.#cooldown.failed(claim.sessionId);
        if (outcome === "released") this.#cooldown.succeeded(claim.sessionId);
        if (outcome !== "drained") this.#forget(held);
      },
      (e: unknown) => {
        // The release itself failed (database unreachable): stop renewing; the lease expires.
        log.error({ err: e }, "driving the session failed; its lease will expire");
        this.#forget(held);
      },
    );
    metrics.sessionsHeld.set(this.#held.size);
  }

  #forget(held: HeldSession): void {
    if (this.#held.get(held.lease.sessionId)?.held !== held) return;
    this.#held.delete(held.lease.sessionId);
    this.#o.metrics.sessionsHeld.set(this.#held.size);
    this.wake();
  }

  #renewalRefused(lease: Lease): void {
    const entry = this.#held.get(lease.sessionId);
    if (!entry || entry.held.lease.epoch !== lease.epoch || entry.held.releasing) return;
    this.#lost(entry.held, "renewal refused");
  }

  /** A fencing refusal: counted once per lease, logged each time, and the driver is aborted. */
  #lost(held: HeldSession, reason: string, error?: unknown): void {
    const fenced = error !== undefined;
    held.log.warn(
      { reason, code: fenced ? "FENCED" : undefined, err: error },
      "lease lost to another worker: stopped driving the session",
    );
    if (held.lost) return;
    held.lost = true;
    this.#o.metrics.fencingRefusals.inc();
    held.stop.abort(new Error(`lease lost: ${reason}`));
  }
}

async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = await Promise.race([p.then(() => true as const), timeout]);
  clearTimeout(timer);
  return settled;
}
