import { z } from "zod";

const Env = z.object({
  DATABASE_URL: z.string().url(),
  HANDOFF_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(8),
  HANDOFF_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});
export type WorkerEnv = z.infer<typeof Env>;

export function workerEnv(source: NodeJS.ProcessEnv = process.env): WorkerEnv {
  const parsed = Env.safeParse(source);
  if (!parsed.success) {
    throw new Error(`invalid worker environment: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  return parsed.data;
}
