import type { ModelMessage } from "ai";

/** C2: the instruction the last allowed request carries, as a user message. */
export function capInstruction(returning: boolean): string {
  return returning
    ? "MAXIMUM STEPS REACHED. This is your last request. Call the reply tool now with your final result, " +
        "including what you finished and what remains open. Only reply is available."
    : "MAXIMUM STEPS REACHED. This is your last request and no tools are available. " +
        "Answer now in plain text: summarize what you did, what you found, and what remains open.";
}

/**
 * Some gateways reject tool history in a request without tools, so for the toolless last
 * request every tool call and tool result is rewritten as plain text, in order.
 */
export function flattenToolHistory(messages: ModelMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const m of messages) {
    if (m.role === "assistant" && typeof m.content !== "string") {
      const text = m.content
        .map((p) => {
          if (p.type === "text") return p.text;
          if (p.type === "tool-call") return `[called tool ${p.toolName} with ${JSON.stringify(p.input)}]`;
          return "";
        })
        .filter(Boolean)
        .join("\n");
      out.push({ role: "assistant", content: text || "(no text)" });
    } else if (m.role === "tool") {
      const text = m.content
        .map((p) => (p.type === "tool-result" ? `[tool ${p.toolName} returned: ${outputText(p.output)}]` : ""))
        .filter(Boolean)
        .join("\n");
      out.push({ role: "user", content: text });
    } else {
      out.push(m);
    }
  }
  return out;
}

function outputText(output: unknown): string {
  const o = output as { type?: string; value?: unknown };
  if (o && (o.type === "text" || o.type === "error-text") && typeof o.value === "string") return o.value;
  return JSON.stringify(o?.value ?? output);
}
