import { formatDuration } from "~/lib/format";
import type { AgentDetail } from "~/trpc/types";
import { Card } from "../ui/card";

/** Tokens and steps the agent used, and for how long it ran. */
export function UsageCard({ agent }: { agent: AgentDetail }) {
  const retries = agent.steps.reduce((n, s) => n + s.retries, 0);
  const calls = agent.steps.reduce((n, s) => n + s.toolCalls.length, 0);
  const ran = agent.endedAt ? new Date(agent.endedAt).getTime() - new Date(agent.createdAt).getTime() : null;
  return (
    <Card title="Usage" id="usage">
      <dl className="kv kv-num">
        <dt>input tokens</dt>
        <dd>{agent.usage.inputTokens.toLocaleString()}</dd>
        <dt>output tokens</dt>
        <dd>{agent.usage.outputTokens.toLocaleString()}</dd>
        <dt>model steps</dt>
        <dd>{agent.usage.modelSteps}</dd>
        <dt>tool calls</dt>
        <dd>{calls}</dd>
        <dt>retries</dt>
        <dd>{retries}</dd>
        <dt>lifetime</dt>
        <dd>{ran === null ? "running" : formatDuration(ran)}</dd>
      </dl>
    </Card>
  );
}
