import type { ChatRequest } from "../wire/chat-request";

/**
 * The tool names a request lets the model call. `tool_choice: "none"` offers nothing even though
 * the AI SDK still sends the `tools` array with it; a named choice offers only that tool.
 */
export function offeredTools(request: ChatRequest): Set<string> {
  const choice = request.tool_choice;
  if (choice === "none") return new Set();
  const named = namedChoice(choice);
  if (named !== undefined) return new Set([named]);
  return new Set((request.tools ?? []).map((tool) => tool.function.name));
}

function namedChoice(choice: unknown): string | undefined {
  if (typeof choice !== "object" || choice === null) return undefined;
  const fn = (choice as { function?: { name?: unknown } }).function;
  return typeof fn?.name === "string" ? fn.name : undefined;
}
