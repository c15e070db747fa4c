import type { ModelMessage } from "ai";
import type { ToolDefinition } from "../tools/define-tool";
import { capInstruction, flattenToolHistory } from "./cap";

/**
 * What `model_steps.request` holds: the request by reference to the agent's history rather
 * than a copy of it (a copy per step grows quadratically with the turn). The messages sent
 * were the first `history` messages of the agent's conversation — flattened to text when
 * `flattened` (C2's toolless last request) — followed by `appended` (the cap instruction).
 * Rows written before this change hold `messages` whole instead.
 */
export interface StoredRequest {
  system: string;
  tools: string[];
  toolChoice: "auto" | "none" | null;
  history: number;
  flattened?: boolean;
  appended?: ModelMessage[];
}

/** A step's request as the inspector shows it: what was sent, messages included. */
export interface SentRequest {
  system?: string;
  messages: ModelMessage[];
  tools?: string[];
  toolChoice?: string | null;
}

/**
 * The next request from the agent's history (C2): on the capped request the cap instruction
 * follows as a user message, and a non-returning agent's tool history is flattened to text
 * for a request with no tools.
 */
export function buildRequest(input: {
  system: string;
  history: ModelMessage[];
  tools: ToolDefinition[];
  capped: boolean;
  returning: boolean;
}): { messages: ModelMessage[]; toolChoiceNone: boolean; stored: StoredRequest } {
  const flattened = input.capped && !input.returning;
  const appended: ModelMessage[] = input.capped ? [{ role: "user", content: capInstruction(input.returning) }] : [];
  const toolChoiceNone = flattened;
  const stored: StoredRequest = {
    system: input.system,
    tools: input.tools.map((tool) => tool.id),
    toolChoice: toolChoiceNone ? "none" : input.tools.length > 0 ? "auto" : null,
    history: input.history.length,
    ...(flattened ? { flattened } : {}),
    ...(appended.length > 0 ? { appended } : {}),
  };
  return { messages: requestMessages(input.history, input.history.length, flattened, appended), toolChoiceNone, stored };
}

/** The messages a request sent, built from the agent's history as the runtime built them. */
export function requestMessages(history: ModelMessage[], count: number, flattened: boolean, appended: ModelMessage[]): ModelMessage[] {
  const sent = history.slice(0, count);
  return [...(flattened ? flattenToolHistory(sent) : sent), ...appended];
}

/** Expands a stored request against the agent's stored history (in order). */
export function expandRequest(stored: unknown, history: ModelMessage[]): SentRequest | null {
  if (!stored || typeof stored !== "object") return null;
  const r = stored as Partial<StoredRequest> & { messages?: ModelMessage[] };
  if (Array.isArray(r.messages) || typeof r.history !== "number") return r as SentRequest;
  const { history: count, flattened, appended, ...rest } = r;
  return { ...rest, messages: requestMessages(history, count, flattened ?? false, appended ?? []) };
}
