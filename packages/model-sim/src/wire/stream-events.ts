import type { PlannedCompletion } from "../play/plan-completion";
import type { CompletionMeta } from "./completion-meta";

/** Characters of tool-call arguments per chunk: small enough that clients must reassemble them. */
const ARGUMENT_PIECE = 24;

/**
 * The `data:` payloads of one streamed completion, in order: role, text a word at a time,
 * each tool call (name first, then its arguments in pieces), the finish reason, the usage
 * when asked for, and `[DONE]`.
 */
export function streamEvents(plan: PlannedCompletion, meta: CompletionMeta, includeUsage: boolean): string[] {
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    JSON.stringify({ id: meta.id, object: "chat.completion.chunk", created: meta.created, model: meta.model, choices, ...extra });
  const delta = (d: Record<string, unknown>, finishReason: string | null = null) =>
    chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finishReason }]);

  const events = [delta({ role: "assistant", content: "" })];
  // Whitespace stays attached to its word, so the pieces join back into the exact text.
  const words = plan.text.match(/\s*\S+\s*/g) ?? (plan.text === "" ? [] : [plan.text]);
  for (const word of words) events.push(delta({ content: word }));
  plan.toolCalls.forEach((call, index) => {
    events.push(
      delta({
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
      }),
    );
    for (let at = 0; at < call.arguments.length; at += ARGUMENT_PIECE) {
      const piece = call.arguments.slice(at, at + ARGUMENT_PIECE);
      events.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  events.push(delta({}, plan.finishReason));
  if (includeUsage) events.push(chunk([], { usage: plan.usage }));
  events.push("[DONE]");
  return events;
}
