import { parseArgs } from "node:util";
import type { SessionDriver } from "./driver";
import { workerEnv } from "./env";
import { loadDriver } from "./load-driver";
import { createLogger } from "./logger";
import { startWorker, type RunningWorker } from "./worker";

export interface MainOptions {
  /** The driver to run sessions with; takes precedence over `driverModule`. */
  driver?: SessionDriver | null;
  /** A module exporting the driver (see `loadDriver`). */
  driverModule?: string;
  /** Overrides of the environment's settings (HANDOFF_WORKER_CONCURRENCY, …). */
  concurrency?: number;
  leaseTtlMs?: number;
  pollMs?: number;
  drainGraceMs?: number;
  heartbeatMs?: number;
}

/**
 * A worker process (`handoff worker`, or spawned by `handoff start`): starts the worker and
 * drains it on SIGTERM or SIGINT, then exits 0. Without a driver it registers but claims
 * nothing, until the agent runtime provides one.
 */
export async function main(options: MainOptions = {}): Promise<RunningWorker> {
  const env = workerEnv();
  const logger = createLogger(env.HANDOFF_LOG_LEVEL);
  const driver =
    options.driver !== undefined ? options.driver : options.driverModule ? await loadDriver(options.driverModule) : null;
  const worker = await startWorker({
    databaseUrl: env.DATABASE_URL,
    concurrency: options.concurrency ?? env.HANDOFF_WORKER_CONCURRENCY,
    driver,
    leaseTtlMs: options.leaseTtlMs ?? env.HANDOFF_LEASE_TTL_MS,
    pollMs: options.pollMs ?? env.HANDOFF_POLL_MS,
    drainGraceMs: options.drainGraceMs ?? env.HANDOFF_DRAIN_GRACE_MS,
    heartbeatMs: options.heartbeatMs,
    logger,
  });
  const stop = (signal: string) => {
    logger.info({ workerId: worker.id, signal }, "stop requested");
    worker.drain().then(
      () => process.exit(0),
      (e: unknown) => {
        logger.error({ workerId: worker.id, err: e }, "drain failed");
        process.exit(1);
      },
    );
  };
  // `on`, not `once`: a second signal while draining must not fall back to the default (exit at once).
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  return worker;
}

/** `main.ts [--concurrency N] [--driver MODULE]`, as `handoff start` spawns it. */
export function parseMainArgs(args: string[]): MainOptions {
  const { values } = parseArgs({
    args,
    options: { concurrency: { type: "string" }, driver: { type: "string" } },
  });
  const options: MainOptions = {};
  if (values.concurrency !== undefined) options.concurrency = positiveInt("--concurrency", values.concurrency);
  if (values.driver !== undefined) options.driverModule = values.driver;
  return options;
}

function positiveInt(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new Error(`${flag} must be an integer from 1 to 1000, not "${value}"`);
  return n;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  Promise.resolve()
    .then(() => main(parseMainArgs(process.argv.slice(2))))
    .catch((e: Error) => {
      process.stderr.write(`worker failed to start: ${e.message}\n`);
      process.exit(1);
    });
}
