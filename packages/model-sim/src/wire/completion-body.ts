import type { PlannedCompletion } from "../play/plan-completion";
import type { CompletionMeta } from "./completion-meta";

/** The non-streaming `chat.completion` object. */
export function completionBody(plan: PlannedCompletion, meta: CompletionMeta) {
  return {
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          // OpenAI sends null, not "", when the model wrote no text.
          content: plan.text === "" ? null : plan.text,
          ...(plan.toolCalls.length > 0
            ? {
                tool_calls: plan.toolCalls.map((call) => ({
                  id: call.id,
                  type: "function",
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: plan.finishReason,
      },
    ],
    usage: plan.usage,
  };
}
