import type { FinishReason, Step } from "../scenario/scenario";
import type { ChatRequest } from "../wire/chat-request";
import { estimateTokens } from "./estimate-tokens";
import { offeredTools } from "./offered-tools";

export interface PlannedToolCall {
  id: string;
  name: string;
  /** The JSON text sent as `function.arguments` (deliberately invalid for `malformedToolCallJson`). */
  arguments: string;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** A step resolved against one request: what goes on the wire, streaming or not. */
export interface PlannedCompletion {
  text: string;
  toolCalls: PlannedToolCall[];
  finishReason: FinishReason;
  usage: Usage;
}

/** Turns a (non-error) step into the completion for this request. */
export function planCompletion(step: Step, request: ChatRequest, nextCallId: () => string): PlannedCompletion {
  const offered = offeredTools(request);
  const toolCalls = (step.toolCalls ?? [])
    .filter((call) => !call.ifOffered || offered.has(call.name))
    .map((call) => {
      const json = JSON.stringify(call.args);
      // Cut before the closing brace: the shape of a model that stopped mid-object.
      const args = step.malformedToolCallJson ? json.slice(0, -1) : json;
      return { id: nextCallId(), name: call.name, arguments: args };
    });
  const text = step.text ?? "";
  const finishReason = step.finish ?? (toolCalls.length > 0 ? "tool_calls" : "stop");
  const input = step.usage?.input ?? estimateTokens(JSON.stringify(request.messages) + JSON.stringify(request.tools ?? []));
  const output =
    step.usage?.output ?? estimateTokens(text + toolCalls.map((call) => call.name + call.arguments).join(""));
  return {
    text,
    toolCalls,
    finishReason,
    usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
  };
}
