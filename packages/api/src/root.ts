import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { agentRouter } from "./router/agent";
import { authRouter } from "./router/auth";
import { opsRouter } from "./router/ops";
import { sessionRouter } from "./router/session";
import { createCallerFactory, createTRPCRouter } from "./trpc";

export const appRouter = createTRPCRouter({
  auth: authRouter,
  session: sessionRouter,
  agent: agentRouter,
  ops: opsRouter,
});

export type AppRouter = typeof appRouter;
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export const createCaller = createCallerFactory(appRouter);
