import { jsonSchema, streamText, tool, type LanguageModel, type ModelMessage, type ToolSet } from "ai";
import type { ToolDefinition } from "../tools/define-tool";
import { storableJson, storableText } from "@handoff/db";
import { TOOL_CHOICE_NONE } from "./resolve-model";

export interface ModelCall {
  model: LanguageModel;
  system: string;
  messages: ModelMessage[];
  tools: ToolDefinition[];
  /** C2's last request of a non-returning agent: no tools at all, and `tool_choice: "none"`. */
  toolChoiceNone?: boolean;
  headers: Record<string, string>;
  signal: AbortSignal;
  timeoutMs: number;
  onTextDelta?: (text: string) => void;
}

export interface CalledTool {
  callId: string;
  name: string;
  input: unknown;
  /** Set when the call could not be used as given (unparsable JSON, a tool that was not offered). */
  invalid?: string;
}

export interface ModelResponse {
  text: string;
  toolCalls: CalledTool[];
  /** The AI SDK's unified reason: stop, length, content-filter, tool-calls, error, other. */
  finishReason: string;
  /** What the provider said, e.g. OpenAI's `content_filter`. */
  rawFinishReason: string | null;
  usage: { input: number; output: number };
}

/** A request that outlived its time budget (retried like a transient error). */
export class ModelTimeoutError extends Error {
  override readonly name = "ModelTimeoutError";
}

/** One model request: one `streamText` call for one step, no tool execution, no SDK retries. */
export async function callModel(call: ModelCall): Promise<ModelResponse> {
  const timeout = AbortSignal.timeout(call.timeoutMs);
  const signal = AbortSignal.any([call.signal, timeout]);
  const tools: ToolSet = Object.fromEntries(
    call.tools.map((t) => [t.id, tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema) })]),
  );
  const result = streamText({
    model: call.model,
    system: call.system || undefined,
    messages: call.messages,
    ...(call.tools.length > 0 ? { tools, toolChoice: "auto" as const } : {}),
    ...(call.toolChoiceNone ? { providerOptions: { handoff: { [TOOL_CHOICE_NONE]: true } } } : {}),
    headers: call.headers,
    abortSignal: signal,
    maxRetries: 0,
    // Errors reach us as stream parts and are handled (retried or recorded); no console noise.
    onError: () => {},
  });
  let text = "";
  const toolCalls = new Map<string, CalledTool>();
  let finishReason = "other";
  let rawFinishReason: string | null = null;
  let usage = { input: 0, output: 0 };
  try {
    for await (const part of result.fullStream) {
      switch (part.type) {
        // Model output is recorded as text and jsonb, which refuse NUL and unpaired surrogates:
        // such a character becomes U+FFFD here, or the step could never be recorded and would be redone forever.
        case "text-delta": {
          const delta = storableText(part.text);
          text += delta;
          call.onTextDelta?.(delta);
          break;
        }
        case "tool-call":
          toolCalls.set(part.toolCallId, {
            callId: storableText(part.toolCallId),
            name: storableText(part.toolName),
            input: storableJson(part.input),
            ...(part.invalid ? { invalid: describeInvalid(part.error) } : {}),
          });
          break;
        case "finish":
          finishReason = part.finishReason;
          rawFinishReason = part.rawFinishReason ?? null;
          usage = { input: part.totalUsage.inputTokens ?? 0, output: part.totalUsage.outputTokens ?? 0 };
          break;
        case "error":
          throw part.error;
        case "abort":
          throw new DOMException("aborted", "AbortError");
      }
    }
  } catch (e) {
    if (timeout.aborted && !call.signal.aborted) throw new ModelTimeoutError(`model request timed out after ${call.timeoutMs} ms`);
    throw e;
  }
  if (timeout.aborted && !call.signal.aborted) throw new ModelTimeoutError(`model request timed out after ${call.timeoutMs} ms`);
  return { text, toolCalls: [...toolCalls.values()], finishReason, rawFinishReason, usage };
}

function describeInvalid(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? "invalid tool call";
}
