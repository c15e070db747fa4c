export { Handoff, type RunResult, type RunOptions, type SessionStatus } from "./handoff";
export { createTRPCHandoffClient, type ClientOptions, type HandoffTRPCClient } from "./client";
export type { WireEvent } from "@handoff/api";
