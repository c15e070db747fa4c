export { appRouter, createCaller, type AppRouter, type RouterInputs, type RouterOutputs } from "./root";
export { SSE, type ApiContext } from "./trpc";
export { EventHub } from "./events/event-hub";
export type { WireEvent } from "./events/wire-event";
export type { SessionSummary } from "./queries/session-summary";
export type { AgentDetail, AgentNode, StepDetail } from "./queries/agent-detail";
export { createApiHandler } from "./handler";
export { serveApi, type ServedApi } from "./serve-node";
