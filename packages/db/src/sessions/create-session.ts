import { z } from "zod";
import type { Db } from "../client";
import { appendEvents } from "../events/append-events";
import { newId } from "../ids";
import { parseInput } from "../validate";
import { isReturning } from "./returning";

/** Per-agent overrides chosen at creation, e.g. by `handoff run` flags. */
export const AgentConfig = z.strictObject({
  baseUrl: z.string().url().optional(),
  maxSteps: z.number().int().min(1).max(1000).optional(),
});
export type AgentConfig = z.infer<typeof AgentConfig>;

export const CreateSessionInput = z.object({
  mode: z.enum(["interactive", "headless"]),
  profile: z.string().min(1).max(100).default("general"),
  title: z.string().max(500).nullish(),
  /** `provider:model` for the root agent; `null` means the profile's or the service default. */
  model: z.string().max(200).nullish(),
  /** The tenant the session belongs to (the creating token's workspace). */
  workspaceId: z.string().min(1).max(63).default("default"),
  /** Overrides for the root agent. */
  config: AgentConfig.default({}),
});
export type CreateSessionInput = z.input<typeof CreateSessionInput>;

export interface CreatedSession {
  sessionId: string;
  rootAgentId: string;
}

/** Creates a session and its root agent in one transaction; the log opens with `session.create`. */
export async function createSession(db: Db, input: CreateSessionInput): Promise<CreatedSession> {
  const { mode, profile, title, model, config, workspaceId } = parseInput(CreateSessionInput, input);
  const sessionId = newId("ses");
  const rootAgentId = newId("agt");
  const returning = isReturning({ isRoot: true, mode });
  await db.sql.begin(async (tx) => {
    await tx`
      INSERT INTO sessions (id, workspace_id, mode, title, profile, root_agent_id)
      VALUES (${sessionId}, ${workspaceId}, ${mode}, ${title ?? null}, ${profile}, ${rootAgentId})`;
    await tx`
      INSERT INTO agents (id, session_id, parent_id, profile, model, config, "returning", depth)
      VALUES (${rootAgentId}, ${sessionId}, NULL, ${profile}, ${model ?? null}, ${JSON.stringify(config)}::text::jsonb,
              ${returning}, 0)`;
    await appendEvents(tx, sessionId, [
      { type: "session.create", agentId: rootAgentId, data: { mode, profile, title: title ?? null, model: model ?? null } },
    ]);
  });
  return { sessionId, rootAgentId };
}
