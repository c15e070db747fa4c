import { createDb, type Db } from "@handoff/db";
import type { SessionDriver } from "./driver";
import { beat, startHeartbeat } from "./heartbeat";
import { listenForWork } from "./listen-for-work";
import { createLogger, type Logger, type LogLevel } from "./logger";
import { createWorkerMetrics, type WorkerMetrics } from "./metrics";
import { registerWorker } from "./register-worker";
import { SessionPool } from "./session-pool";
import { watchStuckLeases } from "./watch-stuck-leases";

export interface WorkerOptions {
  databaseUrl: string;
  /** Sessions driven at once. */
  concurrency: number;
  /**
   * Runs the sessions this worker claims. `null` registers and heartbeats but claims nothing
   * (a process started before any driver is plugged in must not hold sessions it cannot run).
   */
  driver: SessionDriver | null;
  /** Lease time to live; renewed every third of it. Default 10 s. */
  leaseTtlMs?: number;
  /** Polling backstop for missed notifications and expired leases. Default 2 s. */
  pollMs?: number;
  /** On drain, how long drivers get before `ctx.signal` aborts them. Default 5 s. */
  drainGraceMs?: number;
  /** Heartbeat (and metrics snapshot) interval. Default 2 s. */
  heartbeatMs?: number;
  /** A pino logger; by default one on stdout at `logLevel`. */
  logger?: Logger;
  logLevel?: LogLevel;
}

export interface RunningWorker {
  id: string;
  metrics: WorkerMetrics;
  /**
   * Graceful stop: marks the worker draining, stops claiming, lets drivers reach a safe
   * boundary (then aborts them), releases every lease at once with a NOTIFY, marks the worker
   * stopped and closes its pool. Safe to call more than once.
   */
  drain(): Promise<void>;
  /** The same as `drain()`. */
  stop(): Promise<void>;
}

/** Starts a worker: registers it, heartbeats, listens for work and drives sessions. */
export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const ttlMs = options.leaseTtlMs ?? 10_000;
  const pollMs = options.pollMs ?? 2_000;
  const drainGraceMs = options.drainGraceMs ?? 5_000;
  // Drivers write one query at a time each; claim, renewal, release and heartbeat need a few more.
  const db: Db = createDb(options.databaseUrl, { max: options.concurrency + 3, applicationName: "handoff-worker" });
  let id: string;
  try {
    id = await registerWorker(db, options.concurrency);
  } catch (e) {
    await db.close();
    throw e;
  }
  const log = (options.logger ?? createLogger(options.logLevel)).child({ workerId: id });
  const metrics = createWorkerMetrics();

  const pool = options.driver
    ? new SessionPool({ db, workerId: id, driver: options.driver, concurrency: options.concurrency, ttlMs, pollMs, log, metrics })
    : null;
  const heartbeat = startHeartbeat({
    db,
    workerId: id,
    intervalMs: options.heartbeatMs ?? 2_000,
    registry: metrics.registry,
    log,
    alsoEachBeat: watchStuckLeases(db, log, ttlMs),
  });
  const listener = pool ? await listenForWork(db, () => pool.wake()) : null;
  pool?.start();
  log.info({ concurrency: options.concurrency, leaseTtlMs: ttlMs, pollMs, drainGraceMs }, "worker started");
  if (!pool) log.warn("no session driver configured: this worker claims no sessions");

  let drained: Promise<void> | null = null;
  const drain = () =>
    (drained ??= (async () => {
      log.info("draining: no new claims; drivers asked to stop at a safe boundary");
      let released: string[] = [];
      let clean = false;
      const warn = (what: string) => (e: unknown) => log.warn({ err: e }, what);
      await db.sql`UPDATE workers SET draining_at = now() WHERE id = ${id}::text`.catch(warn("could not mark the worker draining"));
      await listener?.close().catch(() => {});
      try {
        released = pool ? await pool.drain(drainGraceMs) : [];
        await heartbeat.stop();
        await beat(db, id, metrics.registry);
        await db.sql`UPDATE workers SET stopped_at = now() WHERE id = ${id}::text`;
        clean = true;
      } catch (e) {
        // Leases not released here expire after their TTL; another worker then takes them over.
        log.error({ err: e }, "drain did not complete");
      } finally {
        await heartbeat.stop();
        // With the database gone (stopped with us by Ctrl-C), do not wait for a goodbye.
        await db.sql.end({ timeout: clean ? 5 : 0 });
      }
      log.info({ released: released.length }, "worker stopped");
    })());
  return { id, metrics, drain, stop: drain };
}
