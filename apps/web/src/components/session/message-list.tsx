"use client";

import { useMutation } from "@tanstack/react-query";
import { preview, shortId } from "~/lib/format";
import { useTRPC } from "~/trpc/react";
import type { InboxMessage } from "~/trpc/types";
import { StatusBadge } from "../ui/status-badge";

/** The inbox: every message with its id and state, queued → admitted or cancelled as it happens. */
export function MessageList({ sessionId, messages, rootAgentId }: { sessionId: string; messages: InboxMessage[]; rootAgentId: string }) {
  const trpc = useTRPC();
  const cancel = useMutation(trpc.session.cancel.mutationOptions());
  return (
    <ol className="messages">
      {messages.map((m) => {
        const text = (m.payload as { text?: unknown } | null)?.text;
        return (
          <li key={m.id} data-message-id={m.id} data-state={m.state} className="message">
            <div className="message-head">
              <span className="kind">{m.kind.replace("_", " ")}</span>
              <span className="mono small" title="message id">
                {m.id}
              </span>
              <StatusBadge status={m.state} />
              {m.state === "queued" ? (
                <button
                  type="button"
                  className="btn btn-small"
                  aria-label={`Cancel message ${m.id}`}
                  disabled={cancel.isPending}
                  onClick={() => cancel.mutate({ sessionId, messageId: m.id })}
                >
                  ✕
                </button>
              ) : null}
            </div>
            <div className="small muted">
              to {!m.targetAgentId || m.targetAgentId === rootAgentId ? "root" : shortId(m.targetAgentId)}
              {typeof text === "string" ? ` · ${preview(text, 90)}` : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
