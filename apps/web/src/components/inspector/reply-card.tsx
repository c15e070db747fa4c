"use client";

import type { AgentDetail } from "~/trpc/types";
import { Card } from "../ui/card";
import { CopyButton } from "../ui/copy-button";
import { EmptyState } from "../ui/empty-state";
import { JsonTree } from "./json-tree";
import { Markdown } from "./markdown";

/**
 * The reply exactly as sent (C1): a string as Markdown, an object or array as a JSON tree.
 * Without a reply it says why, and shows partial text as partial — never as a result.
 */
export function ReplyCard({ agent }: { agent: AgentDetail }) {
  const value = agent.replyValue;
  const has = value !== null && value !== undefined;
  const kind = !has ? null : typeof value === "string" ? "string" : Array.isArray(value) ? "array" : typeof value;
  const lastAnswer = !agent.returning ? [...agent.steps].reverse().find((s) => s.responseText?.trim())?.responseText : null;

  return (
    <Card
      title={
        <>
          Reply {kind ? <span className="muted small">· {kind === "string" ? "string, rendered as Markdown" : `${kind}, as sent`}</span> : null}
        </>
      }
      actions={has && typeof value === "string" ? <CopyButton text={value} /> : null}
      className="reply-card"
      id="reply"
    >
      {has ? (
        typeof value === "string" ? (
          <Markdown text={value} />
        ) : typeof value === "object" ? (
          <JsonTree value={value} label="Reply value" />
        ) : (
          <pre className="mono">{JSON.stringify(value)}</pre>
        )
      ) : !agent.returning ? (
        <>
          <p className="muted small">An interactive root never replies; it answers in its turns. Its last answer:</p>
          {lastAnswer ? <Markdown text={lastAnswer} /> : <EmptyState>No answer yet.</EmptyState>}
        </>
      ) : agent.status === "running" || agent.status === "pending" ? (
        <EmptyState>No reply yet: the agent is {agent.status}.</EmptyState>
      ) : (
        <EmptyState>No reply: the agent stopped with {agent.stopReason ?? "no stop reason"}.</EmptyState>
      )}
      {agent.partialText ? (
        <div className="partial">
          <h3>Partial text — not a reply</h3>
          <pre className="prewrap">{agent.partialText}</pre>
        </div>
      ) : null}
    </Card>
  );
}
