import { z } from "zod";

/** An empty variable (`DATABASE_URL=`) means unset. */
const unsetIfEmpty = (v: unknown) => (v === "" ? undefined : v);

const Env = z.object({
  DATABASE_URL: z.preprocess(unsetIfEmpty, z.string().url().optional()),
  /** Where embedded Postgres keeps its data (and other local state) when DATABASE_URL is unset. */
  HANDOFF_DATA_DIR: z.string().default(".handoff"),
  HANDOFF_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  /** Largest inbox payload accepted, in bytes of its JSON. */
  HANDOFF_MAX_PAYLOAD_BYTES: z.coerce.number().int().positive().default(256 * 1024),
});
export type DbEnv = z.infer<typeof Env>;

/** The database package's environment, validated once. */
export function dbEnv(source: NodeJS.ProcessEnv = process.env): DbEnv {
  const parsed = Env.safeParse(source);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`invalid environment: ${issues}`);
  }
  return parsed.data;
}
