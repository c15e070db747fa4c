import path from "node:path";
import { registerSecrets } from "@handoff/db";
import type { SessionDriver } from "@handoff/worker/driver";
import type { RuntimeEnv } from "./env";
import { parseWebhooks } from "./hooks/hook-config";
import { loadProfiles } from "./profiles/load-profiles";
import { createModelResolver } from "./models/resolve-model";
import { createSessionDriver } from "./session/drive-session";
import type { Runtime } from "./session/turn-context";

export interface RuntimeHandle {
  runtime: Runtime;
  driver: SessionDriver;
  /** Stops in-process model servers (`sim:*`). */
  close(): Promise<void>;
}

/** Loads profiles (failing loudly on a bad file) and builds the session driver a worker runs. */
export async function createRuntime(env: RuntimeEnv, options: { retryBaseDelayMs?: number } = {}): Promise<RuntimeHandle> {
  const profiles = await loadProfiles(path.resolve(env.HANDOFF_AGENTS_DIR));
  const models = createModelResolver(env);
  const webhooks = parseWebhooks(env.HANDOFF_WEBHOOKS);
  // Keys and webhook secrets never reach events, transcripts or logs (packages/db redact).
  registerSecrets([env.OPENAI_API_KEY, env.ANTHROPIC_API_KEY, env.HANDOFF_API_KEY, ...webhooks.map((w) => w.secret)]);
  const runtime: Runtime = { env, profiles, models, webhooks, retryBaseDelayMs: options.retryBaseDelayMs };
  return { runtime, driver: createSessionDriver(runtime), close: () => models.close() };
}
