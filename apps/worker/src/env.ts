import { z } from "zod";

const Env = z.object({
  DATABASE_URL: z.string().url(),
  /** Sessions one worker drives at once. */
  HANDOFF_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(8),
  HANDOFF_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** How long a claimed session stays leased without renewal; renewed every third of it. */
  HANDOFF_LEASE_TTL_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  /** Polling backstop for missed inbox notifications (and the only way to notice expired leases). */
  HANDOFF_POLL_MS: z.coerce.number().int().min(10).max(600_000).default(2_000),
  /** On SIGTERM, how long drivers get to reach a safe boundary before they are aborted. */
  HANDOFF_DRAIN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
});
export type WorkerEnv = z.infer<typeof Env>;

export function workerEnv(source: NodeJS.ProcessEnv = process.env): WorkerEnv {
  const parsed = Env.safeParse(source);
  if (!parsed.success) {
    throw new Error(`invalid worker environment: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  return parsed.data;
}
