import type { TRPCRouterRecord } from "@trpc/server";
import { publicProcedure } from "../trpc";

export const authRouter = {
  /** Who the presented token is: its role and workspace (the dashboard shows them and hides what the role cannot do). */
  whoami: publicProcedure.query(({ ctx }) => ({ role: ctx.auth!.role, workspaceId: ctx.auth!.workspaceId, tokenId: ctx.auth!.tokenId })),
} satisfies TRPCRouterRecord;
