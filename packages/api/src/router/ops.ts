import type { TRPCRouterRecord } from "@trpc/server";
import { queueView, workersView } from "../queries/ops";
import { publicProcedure } from "../trpc";

export const opsRouter = {
  workers: publicProcedure.query(({ ctx }) => workersView(ctx.db.sql, ctx.limits.leaseTtlMs)),
  queue: publicProcedure.query(({ ctx }) => queueView(ctx.db.sql, ctx.limits.leaseTtlMs)),
} satisfies TRPCRouterRecord;
