import type { DriveContext } from "@handoff/worker/driver";
import type { ModelResolver } from "../models/resolve-model";
import type { ProfileRegistry } from "../profiles/load-profiles";
import type { RuntimeEnv } from "../env";
import type { Webhook } from "../hooks/hook-config";
import type { AgentRunners } from "./agent-runners";

/** What the runtime is built from, shared by every session a worker drives. */
export interface Runtime {
  env: RuntimeEnv;
  profiles: ProfileRegistry;
  models: ModelResolver;
  webhooks: Webhook[];
  /** First retry backoff without Retry-After (tests shorten it). */
  retryBaseDelayMs?: number;
}

/** One turn of one agent, under one lease. */
export interface TurnContext {
  rt: Runtime;
  ctx: DriveContext;
  turnId: string;
  /** The drive's agent runners: subagents run through them. */
  runners: AgentRunners;
}
