import { workerEnv } from "./env";
import { startWorker } from "./worker";

/** Entry point of a worker process (`handoff worker`, or spawned by `handoff start`). */
export async function main(): Promise<void> {
  const env = workerEnv();
  const log = (msg: string, fields: Record<string, unknown> = {}) =>
    process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), msg, ...fields })}\n`);
  const worker = await startWorker({ databaseUrl: env.DATABASE_URL, concurrency: env.HANDOFF_WORKER_CONCURRENCY, log });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await worker.stop();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e: Error) => {
    process.stderr.write(`worker failed to start: ${e.message}\n`);
    process.exit(1);
  });
}
