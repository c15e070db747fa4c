import type { RouterOutputs } from "@handoff/api";

export type { WireEvent } from "@handoff/api";
export type SessionSummary = RouterOutputs["session"]["get"];
export type SessionList = RouterOutputs["session"]["list"];
export type InboxMessage = RouterOutputs["session"]["messages"][number];
export type AgentNode = RouterOutputs["agent"]["tree"][number];
export type AgentDetail = RouterOutputs["agent"]["get"];
export type StepDetail = AgentDetail["steps"][number];
export type ToolCallDetail = StepDetail["toolCalls"][number];
export type WorkerView = RouterOutputs["ops"]["workers"][number];
export type QueueView = RouterOutputs["ops"]["queue"];
