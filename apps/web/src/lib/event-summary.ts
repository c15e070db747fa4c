import type { WireEvent } from "~/trpc/types";
import { plural, preview, shortId } from "./format";

type Data = Record<string, any>;

const SUMMARIES: Record<string, (d: Data) => string> = {
  "session.create": (d) => `${d.mode} session · profile ${d.profile}${d.model ? ` · model ${d.model}` : ""}`,
  "session.status": (d) => `session → ${d.status}`,
  "session.title": (d) => `title “${d.title}”`,
  "session.cancel": (d) =>
    `cancel: ${plural(d.cancelledMessages?.length ?? 0, "queued message")} removed, ${plural(d.runningTurns ?? 0, "running turn")} aborted`,
  "message.queue": (d) => `${d.kind} ${d.messageId} queued${d.childId ? ` (result of ${shortId(d.childId)})` : ""}`,
  "message.admit": (d) => `admitted ${(d.messages ?? []).map((m: Data) => `${m.kind} ${m.messageId}`).join(", ")}`,
  "message.cancel": (d) => `${d.messageId} cancelled`,
  "turn.start": () => "turn started",
  "turn.end": (d) => `turn ended · ${d.stopReason}`,
  "agent.spawn": (d) => `spawned ${d.profile} ${shortId(d.childId)}${d.background ? " in the background" : ""}`,
  "agent.start": (d) => `${d.profile} started`,
  "agent.end": (d) =>
    [d.status, d.stopReason, d.evidence?.verdict, d.failureTag ? `failure ${d.failureTag}` : null].filter(Boolean).join(" · "),
  "agent.reply": (d) => `reply ${preview(d.value, 140)}`,
  "agent.nudge": (d) => `nudge ${d.nudge}/${d.budget} (${d.reason})`,
  "agent.resume": (d) => `resume ${d.messageId} requested by ${d.requestedBy === "api" ? "a person" : shortId(d.requestedBy)}`,
  "model-step.start": (d) => `step ${d.number}${d.capped ? " (last allowed)" : ""} · tools ${(d.tools ?? []).join(", ") || "none"}`,
  "model-step.end": (d) =>
    d.error
      ? `step ${d.number} failed: ${preview(d.error, 120)}`
      : `step ${d.number} → ${d.finishReason} · ${d.usage?.input ?? 0}/${d.usage?.output ?? 0} tok${
          d.toolCalls?.length ? ` · ${d.toolCalls.map((c: Data) => c.name).join(", ")}` : ""
        }`,
  "model-step.retry": (d) => `retry ${d.attempt} (${d.reason}) in ${d.delayMs} ms`,
  "text.delta": (d) => preview(d.text, 160),
  "tool-call.start": (d) => `${d.name}(${preview(d.args, 100)})`,
  "tool-call.end": (d) => `${d.name} → ${d.isError ? "error: " : ""}${preview(d.output, 110)}`,
  "lease.claim": (d) => `claimed by ${shortId(d.workerId)} · epoch ${d.epoch}${d.takeoverFrom ? ` · taken over from ${shortId(d.takeoverFrom)}` : ""}`,
  "lease.release": (d) => `released by ${shortId(d.workerId)} · epoch ${d.epoch} · ${d.reason}`,
  "todo.update": (d) => {
    const todos: Data[] = d.todos ?? [];
    const open = todos.filter((t) => t.status === "pending" || t.status === "in_progress").length;
    return `ledger: ${plural(todos.length, "item")}, ${open} open`;
  },
};

/** One line that says what an event means, for the stream's rows. */
export function summarizeEvent(e: WireEvent): string {
  const summarize = SUMMARIES[e.type];
  try {
    return summarize ? summarize(e.data as Data) : preview(e.data, 140);
  } catch {
    return preview(e.data, 140);
  }
}

/** The family an event type belongs to (its noun), for colour and filtering. */
export function eventFamily(type: string): string {
  return type.split(".")[0] ?? type;
}
