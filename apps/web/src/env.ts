import { z } from "zod";

const Env = z.object({
  /** Set by `handoff start` (or the operator) for every web process. */
  DATABASE_URL: z.string().url(),
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
