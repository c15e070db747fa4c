import type { WireEvent } from "@handoff/sdk";
import { describe, expect, it } from "vitest";
import { PromptInterval } from "../src/acp/prompt-interval";

let seq = 0;
function ev(type: string, data: Record<string, unknown> = {}, turnId: string | null = null): WireEvent {
  return { seq: ++seq, type, agentId: "agt_root", turnId, data, at: new Date(0).toISOString() };
}

const queued = (messageId: string) => ev("message.queue", { messageId });
const admitted = (turnId: string, ...messageIds: string[]) =>
  ev("message.admit", { turnId, messages: messageIds.map((messageId) => ({ messageId, kind: "prompt" })) }, turnId);
const turnEnd = (turnId: string, stopReason: string) => ev("turn.end", { stopReason }, turnId);
const status = (s: string) => ev("session.status", { status: s });

/** Feeds events to a fresh interval; returns each event's verdict. */
function follow(messageId: string, events: WireEvent[]) {
  const interval = new PromptInterval(messageId);
  return events.map((e) => interval.observe(e));
}

describe("a prompt's interval", () => {
  it("opens at the message's receipt and forwards nothing before it", () => {
    const seen = follow("msg_a", [ev("text.delta", { text: "earlier" }), queued("msg_b"), queued("msg_a"), ev("text.delta", { text: "now" })]);
    expect(seen.map((s) => s.inside)).toEqual([false, false, true, true]);
  });

  it("ends at the idle after the turn that admitted the message, with that turn's stop reason", () => {
    const seen = follow("msg_a", [queued("msg_a"), admitted("trn_1", "msg_a"), turnEnd("trn_1", "max_tokens"), status("idle")]);
    expect(seen.at(-1)!.end).toEqual({ kind: "idle", turnId: "trn_1", stopReason: "max_tokens", detail: null });
    expect(seen.slice(0, -1).every((s) => s.end === null)).toBe(true);
  });

  it("ignores a late end and an idle of another turn (a cancelled one) that came before its admission", () => {
    const seen = follow("msg_a", [
      queued("msg_a"),
      turnEnd("trn_old", "cancelled"),
      status("idle"),
      admitted("trn_2", "msg_a"),
      turnEnd("trn_2", "end_turn"),
      status("idle"),
    ]);
    expect(seen.findIndex((s) => s.end)).toBe(5);
    expect(seen[5]!.end).toMatchObject({ turnId: "trn_2", stopReason: "end_turn" });
  });

  it("does not end at an idle written while its own turn is still running", () => {
    const seen = follow("msg_a", [queued("msg_a"), admitted("trn_1", "msg_a"), status("idle"), turnEnd("trn_1", "end_turn"), status("idle")]);
    expect(seen.map((s) => Boolean(s.end))).toEqual([false, false, false, false, true]);
  });

  it("waits past its turn's end for the whole session to be idle (a background child still running)", () => {
    const seen = follow("msg_a", [
      queued("msg_a"),
      admitted("trn_1", "msg_a"),
      turnEnd("trn_1", "end_turn"),
      ev("text.delta", { text: "child result arrived" }),
      admitted("trn_2", "msg_child_result"),
      turnEnd("trn_2", "max_tokens"),
      status("idle"),
    ]);
    expect(seen.map((s) => s.inside)).toEqual([true, true, true, true, true, true, true]);
    expect(seen.at(-1)!.end).toMatchObject({ turnId: "trn_1", stopReason: "end_turn" });
  });

  it("ends as cancelled when its message is cancelled before any turn admitted it, but not after", () => {
    expect(follow("msg_a", [queued("msg_a"), ev("message.cancel", { messageId: "msg_a" })]).at(-1)!.end).toEqual({
      kind: "cancelled-before-admission",
    });
    const late = follow("msg_a", [queued("msg_a"), admitted("trn_1", "msg_a"), ev("message.cancel", { messageId: "msg_a" })]);
    expect(late.at(-1)!.end).toBeNull();
  });

  it("keeps the error detail of its turn's agent end", () => {
    const seen = follow("msg_a", [
      queued("msg_a"),
      admitted("trn_1", "msg_a"),
      turnEnd("trn_1", "error"),
      ev("agent.end", { stopReason: "error", detail: "HTTP 400: bad request" }, "trn_1"),
      status("idle"),
    ]);
    expect(seen.at(-1)!.end).toEqual({ kind: "idle", turnId: "trn_1", stopReason: "error", detail: "HTTP 400: bad request" });
  });
});
