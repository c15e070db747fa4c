import { z } from "zod";
import { dbEnv } from "@handoff/db";

const Env = z.object({
  /** Port of the web app (dashboard, tRPC, health, metrics). */
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HANDOFF_HOST: z.string().default("127.0.0.1"),
  /** Worker processes `handoff start` runs. */
  HANDOFF_WORKERS: z.coerce.number().int().min(0).max(64).default(1),
  /** Profile files (\`*.md\`) beside the built-ins. */
  HANDOFF_AGENTS_DIR: z.string().default("agents"),
  /** API token for a running service (`--url`); an empty value means none. */
  HANDOFF_TOKEN: z
    .string()
    .optional()
    .transform((v) => v || undefined),
});
export type CliEnv = z.infer<typeof Env> & ReturnType<typeof dbEnv>;

export function cliEnv(source: NodeJS.ProcessEnv = process.env): CliEnv {
  const parsed = Env.safeParse(source);
  if (!parsed.success) {
    throw new Error(`invalid environment: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  return { ...parsed.data, ...dbEnv(source) };
}
