"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useLiveInvalidation } from "~/hooks/use-live-invalidation";
import { useSessionWatch } from "~/hooks/use-session-watch";
import { errorMessage } from "~/lib/error-message";
import { useTRPC } from "~/trpc/react";
import { AgentTree } from "../session/agent-tree";
import { Card } from "../ui/card";
import { ErrorBox } from "../ui/error-box";
import { Loading } from "../ui/loading";
import { SimNotice } from "../ui/sim-notice";
import { AgentHeader } from "./agent-header";
import { EvidenceCard } from "./evidence-card";
import { ReplyCard } from "./reply-card";
import { ResumeCard } from "./resume-card";
import { StepTimeline } from "./step-timeline";
import { TodoLedger } from "./todo-ledger";
import { Transcript } from "./transcript";
import { UsageCard } from "./usage-card";

/** Everything about one agent: reply, evidence, ledger, resume, usage, timeline and transcript — kept live. */
export function InspectorPage({ sessionId, agentId }: { sessionId: string; agentId: string }) {
  const trpc = useTRPC();
  const session = useQuery(trpc.session.get.queryOptions({ sessionId }));
  const agent = useQuery(trpc.agent.get.queryOptions({ agentId }));
  const tree = useQuery(trpc.agent.tree.queryOptions({ sessionId }));
  const messages = useQuery(trpc.session.messages.queryOptions({ sessionId }));
  const onEvent = useLiveInvalidation(sessionId);
  const live = useSessionWatch(sessionId, session.data?.lastSeq, onEvent);

  if (agent.isPending) return <Loading lines={8} label="Loading the agent…" />;
  if (agent.isError) {
    return agent.error.data?.code === "NOT_FOUND" || agent.error.data?.code === "BAD_REQUEST" ? (
      <div className="center-note">
        <h1>No such agent</h1>
        <p>
          {errorMessage(agent.error)}. <Link href={`/sessions/${sessionId}`}>Back to the session</Link>.
        </p>
      </div>
    ) : (
      <ErrorBox error={agent.error} retry={() => void agent.refetch()} what="load the agent" />
    );
  }
  const a = agent.data;
  return (
    <div className="stack">
      <AgentHeader agent={a} live={live} />
      <SimNotice model={a.model} />
      <div className="session-grid">
        <aside className="stack" aria-label="Agents">
          <Card title="Agents" id="agents">
            {tree.data ? <AgentTree sessionId={sessionId} agents={tree.data} selected={agentId} /> : <Loading lines={2} />}
          </Card>
        </aside>
        <div className="stack">
          <div className="inspector-grid">
            <div className="stack">
              <ReplyCard agent={a} />
              <div className="two-col">
                <TodoLedger agent={a} />
                <ResumeCard agent={a} messages={messages.data ?? []} />
              </div>
              <StepTimeline agent={a} />
            </div>
            <div className="stack">
              <EvidenceCard agent={a} />
              <UsageCard agent={a} />
            </div>
          </div>
          <Transcript agent={a} />
        </div>
      </div>
    </div>
  );
}
