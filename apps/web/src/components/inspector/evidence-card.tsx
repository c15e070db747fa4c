import { VERDICT_RULES } from "~/lib/verdict-rules";
import type { AgentDetail } from "~/trpc/types";
import { Card } from "../ui/card";
import { FailureTag } from "../ui/failure-tag";
import { VerdictBadge } from "../ui/verdict-badge";

const yesNo = (v: boolean | null) => (v === null ? "—" : v ? "yes" : "no");

/** C4's structural evidence and the verdict, with the rule that fired among the rules tried in order. */
export function EvidenceCard({ agent }: { agent: AgentDetail }) {
  const e = agent.evidence;
  const fired = VERDICT_RULES.findIndex((r) => r.rule === e.verdictRule);
  return (
    <Card title="Evidence" id="evidence" actions={<VerdictBadge verdict={e.verdict} />}>
      {e.verdict === null ? <p className="muted small">Not judged yet: evidence is recorded when the agent stops.</p> : null}
      <dl className="kv">
        <dt>final message present</dt>
        <dd data-testid="final-message-present">{yesNo(e.finalMessagePresent)}</dd>
        <dt>open todos</dt>
        <dd data-testid="open-todo-count">{e.openTodoCount === null ? (e.verdict ? "no ledger kept" : "—") : e.openTodoCount}</dd>
        <dt>stop reason</dt>
        <dd data-testid="stop-reason">
          <span className="mono">{e.stopReason ?? "—"}</span>
          {agent.rawFinishReason ? <span className="muted small"> · provider finish “{agent.rawFinishReason}”</span> : null}
          {agent.stopDetail ? <div className="small">{agent.stopDetail}</div> : null}
        </dd>
        <dt>failure tag</dt>
        <dd>{agent.failureTag ? <FailureTag tag={agent.failureTag} /> : <span className="muted">none</span>}</dd>
        <dt>verdict</dt>
        <dd data-testid="verdict">{e.verdict ? <VerdictBadge verdict={e.verdict} /> : "—"}</dd>
      </dl>
      <ol className="rules" aria-label="Verdict rules, first that fires decides">
        {VERDICT_RULES.map((r, i) => (
          <li
            key={r.rule}
            className={i === fired ? "rule fired" : fired >= 0 && i > fired ? "rule skipped" : "rule"}
            aria-current={i === fired ? "true" : undefined}
            data-rule={r.rule}
          >
            <span className="mono small">{r.rule}</span> {r.when} → {r.verdict}
            {i === fired ? <strong className="small"> ← fired</strong> : null}
          </li>
        ))}
      </ol>
    </Card>
  );
}
