import type { TRPCRouterRecord } from "@trpc/server";
import { enqueueResume } from "@handoff/runtime";
import { z } from "zod";
import { AgentId, IdempotencyKey, SessionId } from "../ids";
import { agentDetail, agentTree } from "../queries/agent-detail";
import { agentInWorkspace, sessionInWorkspace } from "../auth/workspace";
import { publicProcedure } from "../trpc";

export const agentRouter = {
  /** Everything the inspector shows: reply, failure tag, evidence, ledger, resume hint, transcript, usage. */
  get: publicProcedure.input(z.strictObject({ agentId: AgentId })).query(async ({ ctx, input }) => {
    await agentInWorkspace(ctx, input.agentId);
    return agentDetail(ctx.db.sql, input.agentId);
  }),

  tree: publicProcedure.input(z.strictObject({ sessionId: SessionId })).query(async ({ ctx, input }) => {
    await sessionInWorkspace(ctx, input.sessionId);
    return agentTree(ctx.db.sql, input.sessionId);
  }),

  /** A person's resume: queues a `resume` message carrying the agent's open todos and stop reason. */
  resume: publicProcedure
    .input(z.strictObject({ agentId: AgentId, idempotencyKey: IdempotencyKey.optional() }))
    .mutation(async ({ ctx, input }) => {
      const agent = await agentInWorkspace(ctx, input.agentId);
      const { messageId } = await ctx.db.sql.begin(async (tx) => {
        const queued = await enqueueResume(tx, {
          sessionId: agent.sessionId,
          agentId: input.agentId,
          idempotencyKey: input.idempotencyKey,
          requestedBy: "api",
          // A person's resume: the result shows in the inspector; the parent is not woken by it.
          background: false,
        });
        await tx`SELECT pg_notify('handoff_inbox', ${agent.sessionId})`;
        return queued;
      });
      return { messageId };
    }),
} satisfies TRPCRouterRecord;

