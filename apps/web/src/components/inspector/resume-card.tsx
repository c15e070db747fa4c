"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "~/lib/error-message";
import { useTRPC } from "~/trpc/react";
import type { AgentDetail, InboxMessage } from "~/trpc/types";
import { Card } from "../ui/card";
import { StatusBadge } from "../ui/status-badge";

const ENDED = ["done", "failed", "cancelled"];

/** C4's resume hint, and Resume: a `resume` message whose progress (queued → admitted) shows below. */
export function ResumeCard({ agent, messages }: { agent: AgentDetail; messages: InboxMessage[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const resume = useMutation(
    trpc.agent.resume.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries(trpc.session.messages.queryFilter({ sessionId: agent.sessionId }));
        void queryClient.invalidateQueries(trpc.agent.get.queryFilter({ agentId: agent.id }));
      },
    }),
  );
  const resumes = messages.filter((m) => m.kind === "resume" && m.targetAgentId === agent.id);

  if (!agent.returning) {
    return (
      <Card title="Resume" id="resume">
        <p className="muted small">An interactive root is not resumed: send it a message from the session page.</p>
      </Card>
    );
  }
  const canResume = ENDED.includes(agent.status);
  return (
    <Card
      title="Resume"
      id="resume"
      actions={
        <button
          type="button"
          className="btn btn-primary btn-small"
          disabled={!canResume || resume.isPending}
          onClick={() => resume.mutate({ agentId: agent.id })}
          title={canResume ? "Queue a resume message carrying the open todos and the stop reason" : `the agent is ${agent.status}`}
        >
          {resume.isPending ? "Resuming…" : "Resume"}
        </button>
      }
    >
      {agent.resumeHint ? (
        <pre className="prewrap hint" data-testid="resume-hint">
          {agent.resumeHint.text}
        </pre>
      ) : (
        <p className="muted small">The hint appears once the agent has stopped.</p>
      )}
      {resume.error ? (
        <p className="error-text" role="alert">
          {errorMessage(resume.error)}
        </p>
      ) : null}
      {resumes.length > 0 ? (
        <ul className="resume-messages" aria-label="Resume messages">
          {resumes.map((m) => (
            <li key={m.id} data-testid="resume-message" data-message-id={m.id} data-state={m.state}>
              resume <span className="mono small">{m.id}</span> <StatusBadge status={m.state} />
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}
