import { RequestError, type PromptResponse, type SessionUpdate } from "@agentclientprotocol/sdk";
import type { Handoff } from "@handoff/sdk";
import { PromptInterval, type IntervalEnd } from "./prompt-interval";
import { sessionUpdates } from "./session-updates";
import { acpStopReason } from "./stop-reason";

/** After a cancel, how long the bridge waits for the service to end the turn before it answers anyway. */
const CANCEL_GRACE_MS = 10_000;

export interface FollowPrompt {
  handoff: Handoff;
  sessionId: string;
  text: string;
  /** `session/cancel`: cancels the session's queued messages and aborts its running turn. */
  cancel: AbortSignal;
  /** The bridge is closing: stop following. */
  shutdown: AbortSignal;
  send(update: SessionUpdate): Promise<void>;
  log(line: string): void;
}

/**
 * Sends one prompt and owns its interval (C5): subscribes before sending, forwards the root
 * agent's updates in order, and answers once the session is idle after the turn that
 * admitted the message ended — with that turn's stop reason, `cancelled`, or (a model
 * error) a JSON-RPC error.
 */
export async function followPrompt(p: FollowPrompt): Promise<PromptResponse> {
  if (p.cancel.aborted) return { stopReason: "cancelled" };
  const session = await p.handoff.trpc.session.get.query({ sessionId: p.sessionId });
  const stop = new AbortController();
  const quit = () => stop.abort();
  p.shutdown.addEventListener("abort", quit);
  const events = p.handoff.events(p.sessionId, { lastEventId: session.lastSeq, signal: stop.signal });
  let grace: NodeJS.Timeout | undefined;
  const cancelSession = () => {
    p.handoff.cancel(p.sessionId).catch((e: Error) => p.log(`cancelling session ${p.sessionId} failed: ${e.message}`));
    // An answer is owed even when no worker reacts: past the grace, `cancelled` without the turn's end.
    grace = setTimeout(() => stop.abort(), CANCEL_GRACE_MS);
  };
  try {
    if (p.cancel.aborted) return { stopReason: "cancelled" };
    const { messageId } = await p.handoff.prompt(p.sessionId, p.text);
    if (p.cancel.aborted) cancelSession();
    else p.cancel.addEventListener("abort", cancelSession, { once: true });
    const interval = new PromptInterval(messageId);
    for await (const e of events) {
      const { inside, end } = interval.observe(e);
      if (inside && e.agentId === session.rootAgentId) {
        for (const update of sessionUpdates(e)) await p.send(update);
      }
      if (end) return answer(p, messageId, end);
    }
    if (p.cancel.aborted) return { stopReason: "cancelled", _meta: { handoff: { messageId } } };
    throw RequestError.internalError(
      { sessionId: p.sessionId, messageId },
      p.shutdown.aborted ? "the bridge is shutting down" : "the session's event stream ended before the session was idle",
    );
  } finally {
    clearTimeout(grace);
    stop.abort();
    p.cancel.removeEventListener("abort", cancelSession);
    p.shutdown.removeEventListener("abort", quit);
  }
}

function answer(p: FollowPrompt, messageId: string, end: IntervalEnd): PromptResponse {
  if (end.kind === "cancelled-before-admission") return { stopReason: "cancelled", _meta: { handoff: { messageId, admitted: false } } };
  const meta = { handoff: { messageId, turnId: end.turnId, stopReason: end.stopReason } };
  // An explicit cancel answers `cancelled` whatever the turn ended with in the meantime.
  if (p.cancel.aborted) return { stopReason: "cancelled", _meta: meta };
  const stopReason = acpStopReason(end.stopReason);
  if (stopReason === null) {
    throw new RequestError(-32603, `model error: ${end.detail ?? "the model request failed"}`, {
      sessionId: p.sessionId,
      ...meta.handoff,
      detail: end.detail,
    });
  }
  return { stopReason, _meta: meta };
}
