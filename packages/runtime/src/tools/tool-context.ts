import type { Db, Lease } from "@handoff/db";
import type { CallRef, SubagentService } from "../subagents/subagent-service";

/** What a tool may use while it runs for one agent. */
export interface ToolContext {
  db: Db;
  lease: Lease;
  sessionId: string;
  agentId: string;
  turnId: string;
  /** The session's workspace directory; workspace tools stay inside it. */
  workspaceDir: string;
  maxOutputBytes: number;
  signal: AbortSignal;
  /** The profile's output JSON Schema, when it declares one (checked by `reply`). */
  outputSchema?: Record<string, unknown>;
  /** Spawning and resuming subagents (the `task` tool). */
  subagents?: SubagentService;
  /** The tool call being run: set per call by the tool batch. */
  call?: CallRef;
}
