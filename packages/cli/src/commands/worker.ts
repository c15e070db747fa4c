import { parseArgs } from "node:util";
import { workerMain } from "@handoff/worker";

export async function workerCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { concurrency: { type: "string" } } });
  if (values.concurrency !== undefined) process.env.HANDOFF_WORKER_CONCURRENCY = values.concurrency;
  await workerMain();
  // The worker keeps the process alive until SIGTERM/SIGINT.
  return await new Promise<number>(() => {});
}
