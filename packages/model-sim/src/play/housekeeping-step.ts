import type { Step } from "../scenario/scenario";
import type { ChatRequest } from "../wire/chat-request";

/**
 * Housekeeping requests (a session title, say) carry `x-handoff-purpose: housekeeping`.
 * They are answered here, outside the scenario, so they never consume an agent's scripted
 * steps — just as they never consume its step budget.
 */
export function housekeepingStep(request: ChatRequest): Step {
  const messages = request.messages as { role?: unknown; content?: unknown }[];
  const last = [...messages].reverse().find((m) => m?.role === "user");
  const text = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
  const words = text.replace(/\s+/g, " ").trim().split(" ").slice(0, 6).join(" ");
  return { text: words || "Untitled session", finish: "stop", usage: { input: 20, output: 6 } };
}
