import Link from "next/link";
import { shortId } from "~/lib/format";
import type { AgentDetail } from "~/trpc/types";
import { CopyButton } from "../ui/copy-button";
import { FailureTag } from "../ui/failure-tag";
import { ModelLabel } from "../ui/model-label";
import { StatusBadge } from "../ui/status-badge";
import { VerdictBadge } from "../ui/verdict-badge";

/** Who the agent is and how it stands: profile, id, status, verdict, failure tag, model, place in the tree. */
export function AgentHeader({ agent, live }: { agent: AgentDetail; live: boolean }) {
  return (
    <header className="session-header">
      <div className="crumbs">
        <Link href="/">Sessions</Link> <span aria-hidden="true">/</span>{" "}
        <Link href={`/sessions/${agent.sessionId}`} className="mono">
          {shortId(agent.sessionId)}
        </Link>{" "}
        <span aria-hidden="true">/</span> <span>inspector</span>
      </div>
      <div className="session-title-row">
        <h1>
          {agent.profile} <span className="mono muted small-h">{agent.id}</span> <CopyButton text={agent.id} label="Copy id" />
        </h1>
        <div className="badges" data-testid="agent-badges">
          <StatusBadge status={agent.status} />
          <VerdictBadge verdict={agent.evidence.verdict} />
          <FailureTag tag={agent.failureTag} />
          <span className={`stream-state stream-${live ? "live" : "connecting"}`}>
            <span className="dot" aria-hidden="true" /> {live ? "live" : "connecting…"}
          </span>
        </div>
      </div>
      <dl className="facts">
        <div>
          <dt>role</dt>
          <dd>{agent.parentId === null ? (agent.returning ? "headless root" : "interactive root") : `subagent, depth ${agent.depth}`}</dd>
        </div>
        {agent.parentId ? (
          <div>
            <dt>parent</dt>
            <dd>
              <Link href={`/sessions/${agent.sessionId}/agents/${agent.parentId}`} className="mono">
                {shortId(agent.parentId)}
              </Link>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>model</dt>
          <dd>
            <ModelLabel model={agent.model} inherited={agent.parentId ? "inherited: service default" : "service default"} />
          </dd>
        </div>
        <div>
          <dt>returns</dt>
          <dd>{agent.returning ? "yes, by reply" : "no (converses)"}</dd>
        </div>
        {agent.parentId ? (
          <div>
            <dt>runs</dt>
            <dd>{agent.background ? "in the background" : "in the foreground"}</dd>
          </div>
        ) : null}
        <div>
          <dt>children</dt>
          <dd>{agent.children.length}</dd>
        </div>
      </dl>
    </header>
  );
}
