"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useLiveInvalidation } from "~/hooks/use-live-invalidation";
import { useSessionEvents } from "~/hooks/use-session-events";
import { useSessionStatus } from "~/hooks/use-session-status";
import { errorMessage } from "~/lib/error-message";
import { useTRPC } from "~/trpc/react";
import { Card } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { ErrorBox } from "../ui/error-box";
import { Loading } from "../ui/loading";
import { SimNotice } from "../ui/sim-notice";
import { AgentTree } from "./agent-tree";
import { EventStream } from "./event-stream";
import { MessageList } from "./message-list";
import { PromptBox } from "./prompt-box";
import { SessionHeader } from "./session-header";

/** One session, live: status, the agent tree, the inbox, the prompt box and the event stream. */
export function SessionPage({ sessionId }: { sessionId: string }) {
  const trpc = useTRPC();
  const onEvent = useLiveInvalidation(sessionId);
  const events = useSessionEvents(sessionId, onEvent);
  const status = useSessionStatus(sessionId);
  const session = useQuery(trpc.session.get.queryOptions({ sessionId }));
  const tree = useQuery(trpc.agent.tree.queryOptions({ sessionId }));
  const messages = useQuery(trpc.session.messages.queryOptions({ sessionId }));

  if (session.isPending) return <Loading lines={8} label="Loading the session…" />;
  if (session.isError) {
    return session.error.data?.code === "NOT_FOUND" || session.error.data?.code === "BAD_REQUEST" ? (
      <div className="center-note">
        <h1>No such session</h1>
        <p>
          {errorMessage(session.error)}. <Link href="/">Back to the sessions</Link>.
        </p>
      </div>
    ) : (
      <ErrorBox error={session.error} retry={() => void session.refetch()} what="load the session" />
    );
  }
  const s = session.data;
  const agents = tree.data ?? [];

  return (
    <div className="stack">
      <SessionHeader session={s} status={status} stream={events.state} />
      <SimNotice model={s.root.model} />
      <div className="session-grid">
        <aside className="stack" aria-label="Agents and inbox">
          <Card title="Agents" id="agents">
            {tree.isPending ? (
              <Loading lines={2} />
            ) : tree.isError ? (
              <ErrorBox error={tree.error} retry={() => void tree.refetch()} what="load the agents" />
            ) : (
              <AgentTree sessionId={sessionId} agents={agents} />
            )}
          </Card>
          <Card title={`Inbox${messages.data ? ` (${messages.data.length})` : ""}`} id="inbox">
            {messages.isPending ? (
              <Loading lines={2} />
            ) : messages.isError ? (
              <ErrorBox error={messages.error} retry={() => void messages.refetch()} what="load the inbox" />
            ) : messages.data.length === 0 ? (
              <EmptyState>No messages yet. Send the first prompt.</EmptyState>
            ) : (
              <MessageList sessionId={sessionId} messages={messages.data} rootAgentId={s.rootAgentId} />
            )}
          </Card>
        </aside>
        <div className="stack session-main">
          <PromptBox session={s} agents={agents} messages={messages.data ?? []} />
          {events.state === "error" && events.error ? <ErrorBox error={events.error} what="follow the events (retrying)" /> : null}
          <EventStream log={events.log} agents={agents} state={events.state} />
        </div>
      </div>
    </div>
  );
}
