import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink, type TRPCClient } from "@trpc/client";
import type { AppRouter } from "@handoff/api";

export interface ClientOptions {
  /** The service's base URL, e.g. http://127.0.0.1:3000 */
  url: string;
  /** An API token (`handoff token create`): sent as a bearer token, and as a connection param on streams. */
  token?: string;
  /** Sent with every query and mutation. */
  headers?: Record<string, string>;
  /** Node 20 has no global EventSource: pass `EventSource` from the `eventsource` package. Browsers need nothing. */
  EventSource?: SubscriptionOptions["EventSource"];
  fetch?: typeof globalThis.fetch;
  /** Streams reopen when nothing, not even a ping, arrived for this long. Default: what the server says (30 s; it pings every 10 s). */
  reconnectAfterInactivityMs?: number;
}

export type HandoffTRPCClient = TRPCClient<AppRouter>;
type SubscriptionOptions = Parameters<typeof httpSubscriptionLink>[0];

/** The tRPC endpoint of a service URL. */
export function trpcUrl(options: ClientOptions): string {
  return `${options.url.replace(/\/+$/, "")}/api/trpc`;
}

/** The EventSource to read streams with: the one given, else the global one. */
export function eventSourceOf(options: ClientOptions): NonNullable<SubscriptionOptions["EventSource"]> {
  const EventSourceImpl = options.EventSource ?? (globalThis.EventSource as SubscriptionOptions["EventSource"]);
  if (!EventSourceImpl) {
    throw new Error("no EventSource available: pass { EventSource } from the 'eventsource' package (Node 20 has none)");
  }
  return EventSourceImpl;
}

/**
 * The typed tRPC client: queries and mutations batched over HTTP, subscriptions over SSE.
 * (`Handoff.events()` and `status()` do not go through it: they read the SSE stream directly, see sse-stream.ts.)
 */
export function createTRPCHandoffClient(options: ClientOptions): HandoffTRPCClient {
  const url = trpcUrl(options);
  const EventSourceImpl = eventSourceOf(options);
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        // A Node EventSource cannot set headers: the token travels as a connection param instead.
        true: httpSubscriptionLink({
          url,
          EventSource: EventSourceImpl,
          connectionParams: options.token ? () => ({ token: options.token! }) : undefined,
        }),
        false: httpBatchLink({
          url,
          headers: () => ({ ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers }),
          fetch: options.fetch,
        }),
      }),
    ],
  });
}
