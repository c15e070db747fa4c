import type { WireEvent } from "@handoff/api";
import { createTRPCHandoffClient, eventSourceOf, trpcUrl, type ClientOptions, type HandoffTRPCClient } from "./client";
import { sseStream, type EventSourceConstructor } from "./sse-stream";

export type SessionStatus = "idle" | "running" | "ended" | "cancelled";

/**
 * What `run()` returns. It describes the interval the run owned — from the prompt's durable
 * receipt to the next whole-session idle — which may include steering, injected context or
 * other messages that arrived meanwhile: it is broader than the prompt that started it, and
 * does not claim the prompt caused it (C5).
 */
export interface RunResult {
  messageId: string;
  sessionId: string;
  /** The root's reply value as sent (string, object or array) when it replied in the interval; else the last committed assistant message of the root in the interval; else null. */
  finalResponse: unknown;
  /** How the root's last turn in the interval ended (`reply`, `end_turn`, `max_tokens`, …); `cancelled` if the prompt was cancelled before any turn admitted it. */
  finishReason: string | null;
  /** Every event of the interval, in order. */
  events: WireEvent[];
  /** Tokens used in the interval, over every agent. */
  usage: { inputTokens: number; outputTokens: number };
}

export interface RunOptions {
  /** Run in this session; without it, a new headless session is created. */
  sessionId?: string;
  mode?: "interactive" | "headless";
  profile?: string;
  model?: string;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** The Handoff SDK: low-level sends and streams, and `run()` for one owned interval. */
export class Handoff {
  readonly trpc: HandoffTRPCClient;
  private readonly options: ClientOptions;
  private readonly EventSource: EventSourceConstructor;

  constructor(options: ClientOptions) {
    this.trpc = createTRPCHandoffClient(options);
    this.options = options;
    this.EventSource = eventSourceOf(options) as unknown as EventSourceConstructor;
  }

  createSession(input: { mode: "interactive" | "headless"; profile?: string; title?: string; model?: string }) {
    return this.trpc.session.create.mutate(input);
  }

  /** Enqueue-only (C5): resolves with `{ messageId }` once the message is durably in the inbox. */
  prompt(sessionId: string, text: string, options: { idempotencyKey?: string } = {}): Promise<{ messageId: string }> {
    return this.trpc.session.prompt.mutate({ sessionId, text, idempotencyKey: options.idempotencyKey });
  }

  followup(sessionId: string, text: string, options: { idempotencyKey?: string } = {}): Promise<{ messageId: string }> {
    return this.trpc.session.followup.mutate({ sessionId, text, idempotencyKey: options.idempotencyKey });
  }

  steer(sessionId: string, text: string, options: { agentId?: string } = {}): Promise<{ messageId: string }> {
    return this.trpc.session.steer.mutate({ sessionId, text, agentId: options.agentId });
  }

  cancel(sessionId: string, messageId?: string) {
    return this.trpc.session.cancel.mutate({ sessionId, messageId });
  }

  /**
   * Durable events from `lastEventId` on, then live; reconnects resume without gap or duplicate.
   * A refusal (UNAUTHORIZED, FORBIDDEN, NOT_FOUND, BAD_REQUEST…) ends it with a TRPCClientError (`.data.code`).
   */
  events(sessionId: string, options: { lastEventId?: number; signal?: AbortSignal } = {}): AsyncIterableIterator<WireEvent> {
    const input = { sessionId, lastEventId: options.lastEventId === undefined ? null : String(options.lastEventId) };
    return this.stream<WireEvent>("session.events", input, options.signal);
  }

  /** Whole-session status: the current one, then each transition. */
  status(sessionId: string, options: { signal?: AbortSignal } = {}): AsyncIterableIterator<{ status: SessionStatus; seq: number }> {
    return this.stream("session.status", { sessionId }, options.signal);
  }

  /** A subscription read straight off the SSE stream (not through tRPC's client: its reader cost more than the rest of the path). */
  private stream<T>(path: string, input: Record<string, unknown>, signal: AbortSignal | undefined): AsyncIterableIterator<T> {
    return sseStream<T>({
      url: `${trpcUrl(this.options)}/${path}`,
      input,
      connectionParams: this.options.token ? { token: this.options.token } : undefined,
      EventSource: this.EventSource,
      signal,
      reconnectAfterInactivityMs: this.options.reconnectAfterInactivityMs,
    });
  }

  /**
   * Sends a prompt and owns the interval from its durable receipt to the next whole-session
   * idle (C5). See `RunResult` for what that interval may hold.
   */
  async run(text: string, options: RunOptions = {}): Promise<RunResult> {
    const sessionId =
      options.sessionId ??
      (await this.createSession({ mode: options.mode ?? "headless", profile: options.profile, model: options.model })).sessionId;
    const session = await this.trpc.session.get.query({ sessionId });
    const abort = new AbortController();
    options.signal?.addEventListener("abort", () => abort.abort(options.signal!.reason));
    // Subscribe before sending: everything after the current seq is seen.
    const stream = this.events(sessionId, { lastEventId: session.lastSeq, signal: abort.signal });
    try {
      const { messageId } = await this.prompt(sessionId, text, { idempotencyKey: options.idempotencyKey });
      return await collectInterval(stream, { sessionId, messageId, rootAgentId: session.rootAgentId });
    } finally {
      abort.abort();
    }
  }
}

async function collectInterval(
  stream: AsyncIterable<WireEvent>,
  run: { sessionId: string; messageId: string; rootAgentId: string },
): Promise<RunResult> {
  const events: WireEvent[] = [];
  let received = false;
  let admitted = false;
  for await (const e of stream) {
    if (!received) {
      // The interval starts at the message's durable receipt.
      if (e.type !== "message.queue" || e.data.messageId !== run.messageId) continue;
      received = true;
    }
    events.push(e);
    if (e.type === "message.admit" && (e.data.messages as { messageId: string }[]).some((m) => m.messageId === run.messageId)) {
      admitted = true;
    }
    if (e.type === "message.cancel" && e.data.messageId === run.messageId && !admitted) {
      return summarize(run, events, "cancelled");
    }
    if (admitted && e.type === "session.status" && ["idle", "ended", "cancelled"].includes(String(e.data.status))) {
      return summarize(run, events, null);
    }
  }
  throw new Error(`the event stream of session ${run.sessionId} ended before the session was idle`);
}

function summarize(run: { sessionId: string; messageId: string; rootAgentId: string }, events: WireEvent[], forced: string | null): RunResult {
  const root = events.filter((e) => e.agentId === run.rootAgentId);
  const reply = root.filter((e) => e.type === "agent.reply").at(-1);
  const lastText = root.filter((e) => e.type === "model-step.end" && typeof e.data.text === "string" && e.data.text.trim()).at(-1);
  const lastTurn = root.filter((e) => e.type === "turn.end").at(-1);
  const usage = { inputTokens: 0, outputTokens: 0 };
  for (const e of events) {
    const u = e.type === "model-step.end" ? (e.data.usage as { input: number; output: number } | undefined) : undefined;
    if (u) {
      usage.inputTokens += u.input;
      usage.outputTokens += u.output;
    }
  }
  return {
    messageId: run.messageId,
    sessionId: run.sessionId,
    finalResponse: reply ? reply.data.value : lastText ? lastText.data.text : null,
    finishReason: forced ?? (lastTurn ? String(lastTurn.data.stopReason) : null),
    events,
    usage,
  };
}
