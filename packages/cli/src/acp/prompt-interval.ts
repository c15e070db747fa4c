import type { WireEvent } from "@handoff/sdk";

/** How a prompt's owned interval ended, in Handoff's terms. */
export type IntervalEnd =
  | { kind: "cancelled-before-admission" }
  | { kind: "idle"; turnId: string; stopReason: string | null; detail: string | null };

const SETTLED = new Set(["idle", "ended", "cancelled"]);

/**
 * One prompt's owned interval (C5), followed event by event: it opens at the message's
 * durable receipt (`message.queue`), correlates the turn that admitted the message by its
 * id, and closes at the first whole-session idle after that turn ended — or at once when the
 * message is cancelled before any turn admitted it. Only the correlated turn's end counts:
 * a late `turn.end` of another (say a cancelled) turn never decides this prompt.
 */
export class PromptInterval {
  private received = false;
  private turnId: string | null = null;
  private stopReason: string | null = null;
  private detail: string | null = null;

  constructor(readonly messageId: string) {}

  /** Whether `e` falls inside the interval (so its updates are forwarded), and the end when `e` closes it. */
  observe(e: WireEvent): { inside: boolean; end: IntervalEnd | null } {
    if (!this.received) {
      this.received = e.type === "message.queue" && e.data.messageId === this.messageId;
      return { inside: this.received, end: null };
    }
    switch (e.type) {
      case "message.cancel":
        if (e.data.messageId === this.messageId && !this.turnId) return { inside: true, end: { kind: "cancelled-before-admission" } };
        break;
      case "message.admit":
        if (!this.turnId && admits(e, this.messageId)) this.turnId = e.turnId ?? String(e.data.turnId);
        break;
      case "turn.end":
        if (this.turnId && e.turnId === this.turnId) this.stopReason = String(e.data.stopReason);
        break;
      case "agent.end":
        if (this.turnId && e.turnId === this.turnId && typeof e.data.detail === "string") this.detail = e.data.detail;
        break;
      case "session.status":
        if (this.turnId && this.stopReason !== null && SETTLED.has(String(e.data.status))) {
          return { inside: true, end: { kind: "idle", turnId: this.turnId, stopReason: this.stopReason, detail: this.detail } };
        }
        break;
    }
    return { inside: true, end: null };
  }
}

function admits(e: WireEvent, messageId: string): boolean {
  const messages = e.data.messages;
  return Array.isArray(messages) && messages.some((m) => (m as { messageId?: unknown }).messageId === messageId);
}
