import { createDb, dbEnv } from "@handoff/db";
import { createRuntime, runtimeEnv, startHookDeliverer } from "@handoff/runtime";
import { parseWorkerArgs, workerMain } from "@handoff/worker";

/**
 * `handoff worker [--concurrency N] [--driver MODULE]`: a worker process running sessions with
 * the agent runtime (or the given driver module), and delivering the webhook outbox.
 * Options are passed on, not put in the environment.
 */
export async function workerCommand(args: string[]): Promise<number> {
  const options = parseWorkerArgs(args);
  const env = runtimeEnv();
  const runtime = options.driverModule ? null : await createRuntime(env);
  const worker = await workerMain({ ...options, driver: runtime?.driver ?? options.driver });
  if (runtime && runtime.runtime.webhooks.length > 0) {
    const db = createDb(workerDatabaseUrl(), { max: 2, applicationName: "handoff-hooks" });
    startHookDeliverer(db, { webhooks: runtime.runtime.webhooks });
  }
  void worker;
  // The worker keeps the process alive; it exits 0 after draining on SIGTERM/SIGINT.
  return await new Promise<number>(() => {});
}

function workerDatabaseUrl(): string {
  const url = dbEnv().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is required for a worker");
  return url;
}
