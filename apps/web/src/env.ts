import { z } from "zod";

const Env = z.object({
  /** Set by `handoff start` (or the operator) for every web process. */
  DATABASE_URL: z.string().url(),
  /** The workers' lease TTL: `/api/metrics` counts a lease stuck once it expired 3 TTLs ago. */
  HANDOFF_LEASE_TTL_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  /** Profile files (`*.md`), to validate `session.create`'s profile; `handoff start` passes an absolute path. */
  HANDOFF_AGENTS_DIR: z.string().default("agents"),
  HANDOFF_MAX_PAYLOAD_BYTES: z.coerce.number().int().positive().default(256 * 1024),
  /** Events read per page when a stream replays. */
  HANDOFF_EVENTS_PAGE_SIZE: z.coerce.number().int().min(10).max(10_000).default(500),
  /** Requests per API token per minute (per web process). */
  HANDOFF_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /** The service's default model (as the workers resolve it): the dashboard says plainly when it is `sim:demo`. */
  HANDOFF_MODEL: z.string().default("sim:demo"),
});

let cached: z.infer<typeof Env> | undefined;

/** The web app's environment, validated on first use (not at build time). */
export function env(): z.infer<typeof Env> {
  if (cached) return cached;
  const parsed = Env.safeParse(process.env);
  if (!parsed.success) {
    throw new Error(`invalid web environment: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  cached = parsed.data;
  return cached;
}
