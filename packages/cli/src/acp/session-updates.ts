import type { PlanEntry, SessionUpdate, ToolKind } from "@agentclientprotocol/sdk";
import type { WireEvent } from "@handoff/sdk";

const KINDS: Record<string, ToolKind> = {
  read_file: "read",
  list_files: "read",
  grep: "search",
  write_file: "edit",
  edit_file: "edit",
  todo_write: "think",
  task: "other",
  reply: "other",
};

/**
 * What an editor is shown of one of the root agent's events: its text as message chunks,
 * its tool calls as `tool_call` / `tool_call_update`, its todo ledger as the plan. Subagents
 * are not streamed: the root's `task` call stands for them, with their result as its output.
 */
export function sessionUpdates(e: WireEvent): SessionUpdate[] {
  const d = e.data;
  switch (e.type) {
    case "text.delta":
      // One model step's text is one message.
      return typeof d.text === "string" && d.text
        ? [{ sessionUpdate: "agent_message_chunk", messageId: String(d.stepId), content: { type: "text", text: d.text } }]
        : [];
    case "tool-call.start":
      return [
        {
          sessionUpdate: "tool_call",
          toolCallId: toolCallId(d),
          title: toolTitle(String(d.name), d.args),
          kind: KINDS[String(d.name)] ?? "other",
          status: "in_progress",
          rawInput: d.args,
        },
      ];
    case "tool-call.end":
      return [
        {
          sessionUpdate: "tool_call_update",
          toolCallId: toolCallId(d),
          status: d.isError ? "failed" : "completed",
          content: [{ type: "content", content: { type: "text", text: outputText(d.output) } }],
          rawOutput: d.output,
        },
      ];
    case "todo.update":
      return [{ sessionUpdate: "plan", entries: planEntries(d.todos) }];
    default:
      return [];
  }
}

/** Model call ids are unique per step at best: the step id makes them unique per session. */
function toolCallId(d: Record<string, unknown>): string {
  return `${String(d.stepId)}/${String(d.callId)}`;
}

function toolTitle(name: string, args: unknown): string {
  const a = (args ?? {}) as Record<string, unknown>;
  const subject = a.path ?? a.pattern ?? (name === "task" ? `${String(a.profile)}: ${String(a.prompt ?? "")}` : undefined);
  const text = subject === undefined ? name : `${name} ${String(subject)}`;
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

function outputText(output: unknown): string {
  return typeof output === "string" ? output : JSON.stringify(output, null, 2);
}

/**
 * The ledger, in its order. ACP plans know pending, in progress and completed only: a
 * cancelled item is left out rather than shown as done.
 */
function planEntries(todos: unknown): PlanEntry[] {
  if (!Array.isArray(todos)) return [];
  return todos.flatMap((t: { content?: unknown; status?: unknown }) =>
    t.status === "pending" || t.status === "in_progress" || t.status === "completed"
      ? [{ content: String(t.content), status: t.status, priority: "medium" as const }]
      : [],
  );
}
