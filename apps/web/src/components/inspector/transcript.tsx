import type { AgentDetail } from "~/trpc/types";
import { Card } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { TranscriptStep } from "./transcript-step";

/** The agent's model steps in order; each folds away what the step before it already sent. */
export function Transcript({ agent }: { agent: AgentDetail }) {
  const steps = agent.steps;
  return (
    <Card title={`Transcript (${steps.length} step${steps.length === 1 ? "" : "s"})`} id="transcript">
      {steps.length === 0 ? (
        <EmptyState>No model steps yet.</EmptyState>
      ) : (
        <div className="steps">
          {steps.map((s, i) => {
            const before = steps[i - 1];
            const count = (step: typeof s | undefined) => (step?.request as { messages?: unknown[] } | null)?.messages?.length ?? 0;
            // History only grows, so the step before sent a prefix of this step's messages.
            const previousCount = Math.min(count(before), count(s));
            return <TranscriptStep key={s.id} step={s} previousCount={previousCount} open={i === steps.length - 1} />;
          })}
        </div>
      )}
    </Card>
  );
}
