import { TRPCError } from "@trpc/server";
import type { ApiContext } from "../trpc";

/**
 * Resolves a session id within the caller's workspace. A session of another workspace is
 * NOT_FOUND, exactly like one that does not exist: its existence is not revealed. A TRPCError,
 * not a HandoffError, because streams check it inside their generator, past the middleware.
 */
export async function sessionInWorkspace(ctx: ApiContext, sessionId: string): Promise<void> {
  const [row] = await ctx.db.sql`SELECT 1 FROM sessions WHERE id = ${sessionId} AND workspace_id = ${ctx.auth!.workspaceId}`;
  if (!row) throw new TRPCError({ code: "NOT_FOUND", message: `session ${sessionId} does not exist` });
}

/** Resolves an agent id within the caller's workspace; returns its session. */
export async function agentInWorkspace(ctx: ApiContext, agentId: string): Promise<{ sessionId: string }> {
  const [row] = await ctx.db.sql<{ sessionId: string }[]>`
    SELECT a.session_id AS "sessionId" FROM agents a JOIN sessions s ON s.id = a.session_id
    WHERE a.id = ${agentId} AND s.workspace_id = ${ctx.auth!.workspaceId}`;
  if (!row) throw new TRPCError({ code: "NOT_FOUND", message: `agent ${agentId} does not exist` });
  return row;
}
