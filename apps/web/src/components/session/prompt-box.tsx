"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type KeyboardEvent } from "react";
import { errorMessage } from "~/lib/error-message";
import { plural, shortId } from "~/lib/format";
import { useTRPC } from "~/trpc/react";
import type { AgentNode, InboxMessage, SessionSummary } from "~/trpc/types";
import { StatusBadge } from "../ui/status-badge";

interface Sent {
  messageId: string;
  kind: string;
}

/**
 * Enter sends (Shift+Enter for a new line). The first message is a prompt, later ones are
 * follow-ups; Steer joins the running turn at its next step boundary; Cancel removes what
 * is queued and aborts the running turn. Each send shows its message id and live state.
 */
export function PromptBox({ session, agents, messages }: { session: SessionSummary; agents: AgentNode[]; messages: InboxMessage[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const [target, setTarget] = useState("");
  const [sent, setSent] = useState<Sent | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const refresh = () => void queryClient.invalidateQueries(trpc.session.messages.queryFilter({ sessionId: session.id }));
  const onSent = (kind: string) => ({ messageId }: { messageId: string }) => {
    setSent({ messageId, kind });
    setNote(null);
    setText("");
    refresh();
  };
  const prompt = useMutation(trpc.session.prompt.mutationOptions({ onSuccess: onSent("prompt") }));
  const followup = useMutation(trpc.session.followup.mutationOptions({ onSuccess: onSent("followup") }));
  const steer = useMutation(trpc.session.steer.mutationOptions({ onSuccess: onSent("steer") }));
  const cancel = useMutation(
    trpc.session.cancel.mutationOptions({
      onSuccess: (r) => {
        setNote(`Cancel requested: ${plural(r.cancelledMessages.length, "queued message")} removed, ${plural(r.runningTurns, "running turn")} aborted.`);
        refresh();
      },
    }),
  );

  const hasPrompt = messages.some((m) => m.kind === "prompt" || m.kind === "followup");
  const finished = session.status === "ended" || session.status === "cancelled";
  const canSend = session.mode === "interactive" ? true : !hasPrompt && !finished;
  const busy = prompt.isPending || followup.isPending || steer.isPending;
  const error = prompt.error ?? followup.error ?? steer.error ?? cancel.error;
  const sentState = sent ? (messages.find((m) => m.id === sent.messageId)?.state ?? "queued") : null;
  const running = agents.filter((a) => a.status === "running" || a.status === "pending");

  const send = () => {
    const value = text.trim();
    if (!value || busy || !canSend) return;
    (hasPrompt ? followup : prompt).mutate({ sessionId: session.id, text: value });
  };
  const sendSteer = () => {
    const value = text.trim();
    if (!value || busy) return;
    steer.mutate({ sessionId: session.id, text: value, agentId: target || undefined });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  return (
    <div className="prompt-box">
      <label className="sr-only" htmlFor="prompt-text">
        Message to the session
      </label>
      <textarea
        id="prompt-text"
        rows={2}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder={
          canSend
            ? "Message the session — Enter sends, Shift+Enter for a new line"
            : finished
              ? `This ${session.mode} session has ${session.status}.`
              : "A headless session takes one prompt; steer it instead."
        }
        aria-describedby="prompt-help"
      />
      <div className="prompt-actions">
        <button type="button" className="btn btn-primary" onClick={send} disabled={!canSend || busy || !text.trim()}>
          Send <kbd>⏎</kbd>
        </button>
        <button type="button" className="btn" onClick={sendSteer} disabled={busy || !text.trim()}>
          Steer
        </button>
        <label className="field-inline small">
          <span>to</span>
          <select value={target} onChange={(e) => setTarget(e.target.value)} aria-label="Steer target">
            <option value="">root</option>
            {running
              .filter((a) => a.parentId !== null)
              .map((a) => (
                <option key={a.id} value={a.id}>
                  {a.profile} {shortId(a.id)}
                </option>
              ))}
          </select>
        </label>
        <span className="spacer" />
        <button
          type="button"
          className="btn btn-danger"
          onClick={() => cancel.mutate({ sessionId: session.id })}
          disabled={cancel.isPending || finished}
        >
          Cancel run
        </button>
      </div>
      <p id="prompt-help" className="prompt-status small" aria-live="polite">
        {error ? (
          <span className="error-text" role="alert">
            {errorMessage(error)}
          </span>
        ) : sent ? (
          <span data-testid="last-sent" data-message-id={sent.messageId} data-state={sentState}>
            Sent {sent.kind} <span className="mono">{sent.messageId}</span> <StatusBadge status={sentState} />
          </span>
        ) : (
          note ?? <span className="muted">Messages are queued in the inbox and admitted by the next turn.</span>
        )}
        {note && sent && !error ? <span className="muted"> · {note}</span> : null}
      </p>
    </div>
  );
}
