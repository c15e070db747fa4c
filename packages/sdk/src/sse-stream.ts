import { TRPCClientError } from "@trpc/client";
import { asyncQueue } from "./async-queue";

/** What the SDK needs of an EventSource: the browser's, or `EventSource` from the `eventsource` package. */
export interface EventSourceLike {
  readonly readyState: number;
  readonly CLOSED: number;
  addEventListener(type: string, listener: (event: { data?: unknown; lastEventId?: string; message?: string }) => void): void;
  close(): void;
}
export type EventSourceConstructor = new (url: string) => EventSourceLike;

export interface SseStreamOptions {
  /** The procedure's URL, e.g. http://127.0.0.1:3000/api/trpc/session.events */
  url: string;
  /** The procedure's input; `lastEventId` is set on it when the stream reopens after the last item seen. */
  input: Record<string, unknown>;
  /** Sent as the `connectionParams` query parameter (a Node EventSource cannot set headers). */
  connectionParams?: Record<string, string>;
  EventSource: EventSourceConstructor;
  signal?: AbortSignal;
  /** Reopen when nothing (not even a ping) arrived for this long; default: what the server's `connected` frame says. */
  reconnectAfterInactivityMs?: number;
}

/** tRPC's retryable codes (BAD_GATEWAY, SERVICE_UNAVAILABLE, GATEWAY_TIMEOUT, INTERNAL_SERVER_ERROR): the stream goes on. */
const RETRYABLE_CODES = new Set([-32012, -32013, -32014, -32603]);

/**
 * One tRPC subscription read straight off an EventSource, as `httpSubscriptionLink` reads it
 * but without its per-item pipeline: the frames of packages/api/src/events/sse-frames.ts —
 * `connected` (the client options), items (`id` = the tracked id), `ping`, `return` (the end),
 * `serialized-error` (tRPC's error shape, thrown as the TRPCClientError the link threw).
 * The EventSource resumes a dropped connection by Last-Event-ID itself; when nothing arrives
 * for the inactivity bound, the stream is reopened with the last id as `lastEventId`.
 * The iterator ends on `return`, on `signal` abort, or when the caller stops iterating.
 */
export function sseStream<T>(options: SseStreamOptions): AsyncIterableIterator<T> {
  let es: EventSourceLike | null = null;
  let lastEventId: string | undefined;
  let inactivityMs = options.reconnectAfterInactivityMs ?? 0;
  let lastActivity = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    es?.close();
    es = null;
    options.signal?.removeEventListener("abort", onAbort);
  };
  const queue = asyncQueue<T>(stop);
  const onAbort = () => {
    stop();
    queue.close();
  };

  // One timer per stream, not one per frame: a frame only stamps the time; the timer, when it
  // fires early, waits out the rest.
  const watch = () => {
    clearTimeout(timer);
    if (inactivityMs > 0) timer = setTimeout(check, inactivityMs);
  };
  const check = () => {
    if (stopped) return;
    const idle = performance.now() - lastActivity;
    if (idle < inactivityMs) timer = setTimeout(check, inactivityMs - idle);
    else open();
  };

  const open = () => {
    es?.close();
    const input = lastEventId === undefined ? options.input : { ...options.input, lastEventId };
    let url = `${options.url}?input=${encodeURIComponent(JSON.stringify(input))}`;
    if (options.connectionParams) url += `&connectionParams=${encodeURIComponent(JSON.stringify(options.connectionParams))}`;
    const source = (es = new options.EventSource(url));
    // Frames of a source replaced by a newer one are not ours any more.
    const current = () => es === source && !stopped;
    const touch = () => {
      lastActivity = performance.now();
    };
    source.addEventListener("connected", (m) => {
      if (!current()) return;
      touch();
      if (options.reconnectAfterInactivityMs === undefined) {
        const client = JSON.parse(String(m.data)) as { reconnectAfterInactivityMs?: number };
        inactivityMs = client.reconnectAfterInactivityMs ?? 0;
      }
      watch();
    });
    source.addEventListener("message", (m) => {
      if (!current()) return;
      touch();
      if (m.lastEventId) lastEventId = m.lastEventId;
      queue.push(JSON.parse(String(m.data)) as T);
    });
    source.addEventListener("ping", () => {
      if (current()) touch();
    });
    source.addEventListener("return", () => {
      if (!current()) return;
      stop();
      queue.close();
    });
    source.addEventListener("serialized-error", (m) => {
      if (!current()) return;
      touch();
      const shape = JSON.parse(String(m.data)) as { code: number; message: string };
      // As the link did: a retryable error leaves the EventSource to reconnect; any other ends the stream.
      if (RETRYABLE_CODES.has(shape.code)) return;
      stop();
      queue.fail(TRPCClientError.from({ error: shape } as never));
    });
    source.addEventListener("error", (event) => {
      if (!current()) return;
      touch();
      // CONNECTING: the EventSource retries by itself (with Last-Event-ID). CLOSED: it gave up (an HTTP error status, not an event stream).
      if (source.readyState !== source.CLOSED) return;
      stop();
      queue.fail(TRPCClientError.from(event instanceof Error ? event : new Error(event.message ?? "the event stream failed")));
    });
    touch();
    watch();
  };

  if (options.signal?.aborted) {
    stopped = true;
    queue.close();
  } else {
    options.signal?.addEventListener("abort", onAbort, { once: true });
    open();
  }
  return queue.iterable;
}
