import { callTRPCProcedure, getTRPCErrorFromUnknown, getTRPCErrorShape, isTrackedEnvelope, TRPCError, type AnyTRPCRouter } from "@trpc/server";
import { parseConnectionParamsFromString } from "@trpc/server/http";
import { procedureType } from "../http/procedure-type";
import { connectedFrame, errorFrame, PING_FRAME, RETURN_FRAME, trackedFrame, untrackedFrames } from "./sse-frames";

/** A plain subscription call, parsed as tRPC's request parser would parse it. */
export interface SubscriptionCall {
  path: string;
  /** The input as sent, with `Last-Event-ID` merged in as `lastEventId` (tRPC's rule). */
  input: unknown;
  lastEventId: string | null;
  connectionParams: Record<string, string | undefined> | null;
}

/**
 * Recognizes `GET <endpoint>/<subscription path>?input=…&connectionParams=…`, the request
 * `httpSubscriptionLink` (the SDK, the dashboard) sends. Anything else — another procedure, a
 * batch, a body, input that does not parse — is left to tRPC, which also answers its errors.
 */
export function parseSubscriptionCall(req: Request, router: AnyTRPCRouter, endpoint: string): SubscriptionCall | null {
  if (req.method !== "GET") return null;
  const url = new URL(req.url);
  if (!url.pathname.startsWith(`${endpoint}/`) || url.searchParams.has("batch")) return null;
  const path = url.pathname.slice(endpoint.length + 1);
  if (procedureType(router, path) !== "subscription") return null;
  try {
    const raw = url.searchParams.get("input");
    let input: unknown = raw === null ? undefined : router._def._config.transformer.input.deserialize(JSON.parse(raw));
    const params = url.searchParams.get("connectionParams");
    const connectionParams = params === null ? null : parseConnectionParamsFromString(params);
    const lastEventId = req.headers.get("last-event-id") ?? url.searchParams.get("lastEventId") ?? url.searchParams.get("Last-Event-Id");
    if (lastEventId) {
      if (typeof input === "object" && input !== null && !Array.isArray(input)) input = { ...input, lastEventId };
      else input ??= { lastEventId };
    }
    return { path, input, lastEventId, connectionParams };
  } catch {
    return null;
  }
}

const SSE_HEADERS = {
  vary: "trpc-accept, accept",
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
  connection: "keep-alive",
};

/**
 * Serves one subscription over SSE the way tRPC's fetch adapter does — the same procedure,
 * called through tRPC with the same context, middlewares (token, ACCESS_RULES, rate limit)
 * and input parser; the same frames, pings and bound on a stream's life — without its
 * per-item pipeline (an async generator, a ping timer and four web streams per item and
 * subscriber), which made fan-out to many streams cost ten times a plain relay.
 */
export function subscriptionResponse<TContext>(
  req: Request,
  call: SubscriptionCall,
  options: { router: AnyTRPCRouter; createContext: () => Promise<TContext> },
): Response {
  const config = options.router._def._config;
  const sse = config.sse ?? {};
  const pingMs = sse.ping?.enabled ? (sse.ping.intervalMs ?? 1_000) : 0;
  const serialize = (v: unknown) => config.transformer.output.serialize(v);
  const abort = new AbortController();
  const onRequestAbort = () => abort.abort();
  if (req.signal.aborted) abort.abort();
  else req.signal.addEventListener("abort", onRequestAbort, { once: true });

  let ctx: TContext | undefined;
  let iterator: AsyncIterator<unknown> | null = null;
  let lastEventId = call.lastEventId && !/[\0\n\r]/.test(call.lastEventId) ? call.lastEventId : null;
  let closed = false;
  let sent = false;
  let pinger: ReturnType<typeof setInterval> | undefined;
  let maxDuration: ReturnType<typeof setTimeout> | undefined;

  const finish = () => {
    closed = true;
    clearInterval(pinger);
    clearTimeout(maxDuration);
    req.signal.removeEventListener("abort", onRequestAbort);
    abort.abort();
    void iterator?.return?.().catch(() => {});
  };
  const errorShape = (cause: unknown) =>
    getTRPCErrorShape({ config, ctx, error: getTRPCErrorFromUnknown(cause), input: call.input, path: call.path, type: "subscription" });

  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(connectedFrame(sse.client ?? {}));
      try {
        ctx = await options.createContext();
        const iterable = await callTRPCProcedure({
          router: options.router,
          path: call.path,
          getRawInput: async () => call.input,
          ctx,
          type: "subscription",
          signal: abort.signal,
          batchIndex: 0,
        });
        if (!isAsyncIterable(iterable)) throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: `Subscription ${call.path} did not return an AsyncGenerator` });
        iterator = iterable[Symbol.asyncIterator]();
      } catch (cause) {
        controller.enqueue(errorFrame(serialize(errorShape(cause))));
        controller.close();
        finish();
        return;
      }
      // A ping whenever a whole interval passed with nothing sent, so the client's inactivity timer never fires.
      if (pingMs > 0) {
        pinger = setInterval(() => {
          if (!sent && !closed) controller.enqueue(PING_FRAME);
          sent = false;
        }, pingMs);
      }
      if (sse.maxDurationMs) {
        // As tRPC does: the stream ends quietly and the client resumes by Last-Event-ID.
        maxDuration = setTimeout(() => {
          if (closed) return;
          controller.close();
          finish();
        }, sse.maxDurationMs);
      }
    },
    async pull(controller) {
      if (closed || !iterator) return;
      try {
        const item = await iterator.next();
        if (closed) return;
        sent = true;
        if (item.done) {
          controller.enqueue(RETURN_FRAME);
        } else if (isTrackedEnvelope(item.value)) {
          lastEventId = item.value[0];
          controller.enqueue(trackedFrame(item.value[0], item.value[1], serialize));
          return;
        } else {
          for (const f of untrackedFrames(JSON.stringify(serialize(item.value)), lastEventId)) controller.enqueue(f);
          return;
        }
      } catch (cause) {
        if (closed) return;
        if (!isAbortError(cause)) controller.enqueue(errorFrame(serialize(errorShape(cause))));
      }
      controller.close();
      finish();
    },
    cancel() {
      finish();
    },
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}

function isAsyncIterable(v: unknown): v is AsyncIterable<unknown> {
  return typeof v === "object" && v !== null && Symbol.asyncIterator in v;
}

function isAbortError(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { name?: unknown }).name === "AbortError";
}
