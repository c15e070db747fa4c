"use client";

import { useNow } from "~/hooks/use-now";
import { formatDuration } from "~/lib/format";
import type { AgentDetail } from "~/trpc/types";
import { Card } from "../ui/card";
import { EmptyState } from "../ui/empty-state";

function tone(s: AgentDetail["steps"][number]): string {
  if (s.error || s.status === "failed") return "bad";
  if (!s.endedAt) return "info";
  if (s.finishReason === "length" || s.finishReason === "content-filter") return "warn";
  if (s.finishReason === "tool-calls") return "accent";
  return "ok";
}

/** Each model step on one time axis: when it started, how long it took, how it finished. */
export function StepTimeline({ agent }: { agent: AgentDetail }) {
  const now = useNow(500);
  if (agent.steps.length === 0) {
    return (
      <Card title="Timeline" id="timeline">
        <EmptyState>No model steps yet.</EmptyState>
      </Card>
    );
  }
  const start = Math.min(...agent.steps.map((s) => new Date(s.startedAt).getTime()));
  const end = Math.max(...agent.steps.map((s) => (s.endedAt ? new Date(s.endedAt).getTime() : now)), start + 1);
  const span = end - start;
  return (
    <Card title="Timeline" id="timeline" actions={<span className="small muted">{formatDuration(span)} from first step to last</span>}>
      <ol className="timeline">
        {agent.steps.map((s) => {
          const from = new Date(s.startedAt).getTime() - start;
          const to = (s.endedAt ? new Date(s.endedAt).getTime() : now) - start;
          const label = `step ${s.number}: ${formatDuration(s.durationMs ?? to - from)}${s.finishReason ? `, ${s.finishReason}` : ""}`;
          return (
            <li key={s.id} className="timeline-row" aria-label={label}>
              <span className="timeline-label mono small">#{s.number}</span>
              <span className="timeline-track">
                <span
                  className={`timeline-bar tone-${tone(s)}`}
                  style={{ left: `${(from / span) * 100}%`, width: `max(3px, ${((to - from) / span) * 100}%)` }}
                  title={label}
                />
              </span>
              <span className="timeline-value small">{formatDuration(s.durationMs ?? (s.endedAt ? null : to - from))}</span>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}
