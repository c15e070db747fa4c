"use client";

import Link from "next/link";
import { shortId } from "~/lib/format";
import type { AgentNode } from "~/trpc/types";
import { FailureTag } from "../ui/failure-tag";
import { StatusBadge } from "../ui/status-badge";
import { VerdictBadge } from "../ui/verdict-badge";

/** The session's agents as a tree: each with its status, verdict and failure tag, linking to the inspector. */
export function AgentTree({ sessionId, agents, selected }: { sessionId: string; agents: AgentNode[]; selected?: string }) {
  const children = new Map<string | null, AgentNode[]>();
  for (const a of agents) children.set(a.parentId, [...(children.get(a.parentId) ?? []), a]);
  const render = (parent: string | null) => {
    const nodes = children.get(parent);
    if (!nodes?.length) return null;
    return (
      <ul className="tree">
        {nodes.map((a) => (
          <li key={a.id} data-agent-id={a.id} data-profile={a.profile} data-status={a.status} data-verdict={a.verdict ?? ""}>
            <Link
              href={`/sessions/${sessionId}/agents/${a.id}`}
              className="tree-node"
              aria-current={selected === a.id ? "page" : undefined}
              title={a.id}
            >
              <span className="tree-name">
                <strong>{a.profile}</strong> {a.parentId === null ? <span className="muted small">root</span> : null}
                <span className="mono small muted"> {shortId(a.id)}</span>
              </span>
              <span className="tree-badges">
                <StatusBadge status={a.status} />
                <VerdictBadge verdict={a.verdict} />
                <FailureTag tag={a.failureTag} />
                <span className="small muted" title="model steps">
                  {a.modelSteps} st
                </span>
              </span>
            </Link>
            {render(a.id)}
          </li>
        ))}
      </ul>
    );
  };
  return <nav aria-label="Agent tree">{render(null)}</nav>;
}
