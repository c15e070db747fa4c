import { z } from "zod";

/** An empty variable means unset. */
const unsetIfEmpty = (v: unknown) => (v === "" ? undefined : v);

const Env = z.object({
  /** `provider:model` used when neither the session nor the profile names one. */
  HANDOFF_MODEL: z.string().default("sim:demo"),
  /** Base URL for `openai-compatible` models when the session gives none. */
  HANDOFF_BASE_URL: z.preprocess(unsetIfEmpty, z.string().url().optional()),
  HANDOFF_API_KEY: z.preprocess(unsetIfEmpty, z.string().optional()),
  OPENAI_API_KEY: z.preprocess(unsetIfEmpty, z.string().optional()),
  ANTHROPIC_API_KEY: z.preprocess(unsetIfEmpty, z.string().optional()),
  HANDOFF_DATA_DIR: z.string().default(".handoff"),
  /** Where profile files (`*.md`) are read from, relative to the working directory. */
  HANDOFF_AGENTS_DIR: z.string().default("agents"),
  /** Abort a model request that has not finished after this long (then retry it). */
  HANDOFF_MODEL_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  /** Retries of one model request on 429, 5xx, resets and timeouts. */
  HANDOFF_MODEL_MAX_RETRIES: z.coerce.number().int().min(0).max(20).default(4),
  /** Webhooks for SubagentStart, SubagentStop and Stop: a JSON array of { url, secret, events? }. */
  HANDOFF_WEBHOOKS: z.preprocess(unsetIfEmpty, z.string().optional()),
  /** How deep subagents may nest below the root (the root is depth 0). */
  HANDOFF_MAX_DEPTH: z.coerce.number().int().min(0).max(20).default(3),
  /** Subagents one parent may have running at once. */
  HANDOFF_MAX_CHILDREN: z.coerce.number().int().min(1).max(100).default(8),
  /** Largest tool result handed back to the model, in bytes. */
  HANDOFF_MAX_TOOL_OUTPUT_BYTES: z.coerce.number().int().positive().default(32 * 1024),
});
export type RuntimeEnv = z.infer<typeof Env>;

export function runtimeEnv(source: NodeJS.ProcessEnv = process.env): RuntimeEnv {
  const parsed = Env.safeParse(source);
  if (!parsed.success) {
    throw new Error(`invalid environment: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  return parsed.data;
}
