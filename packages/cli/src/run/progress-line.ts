/** An event as both `handoff run` modes see it: read from the database in process, streamed from the API with `--url`. */
export interface ProgressEvent {
  type: string;
  agentId: string | null;
  data: Record<string, unknown>;
}

/** The line text mode writes to stderr for an event, or null for events it does not show. */
export function progressLine(e: ProgressEvent): string | null {
  const d = e.data;
  const who = e.agentId ? `[${e.agentId.slice(-6)}] ` : "";
  switch (e.type) {
    case "model-step.end":
      return d.error
        ? `${who}step ${d.number} failed: ${d.error}`
        : `${who}step ${d.number}: ${d.finishReason} (${(d.usage as { input: number }).input} in / ${(d.usage as { output: number }).output} out)`;
    case "model-step.retry":
      return `${who}retrying the model request (${d.reason}) in ${d.delayMs} ms`;
    case "tool-call.start":
      return `${who}→ ${d.name} ${JSON.stringify(d.args).slice(0, 120)}`;
    case "tool-call.end":
      return d.isError ? `${who}  ✗ ${String(d.output).slice(0, 200)}` : null;
    case "agent.nudge":
      return `${who}reminded to reply (${d.nudge}/${d.budget})`;
    case "agent.end": {
      const ev = d.evidence as { verdict: string };
      return `${who}ended: ${d.stopReason}${d.failureTag ? ` (${d.failureTag})` : ""}, ${ev.verdict}`;
    }
    default:
      return null;
  }
}
