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
}

export type HandoffTRPCClient = TRPCClient<AppRouter>;
type SubscriptionOptions = Parameters<typeof httpSubscriptionLink>[0];

/** The typed tRPC client: queries and mutations batched over HTTP, subscriptions over SSE. */
export function createTRPCHandoffClient(options: ClientOptions): HandoffTRPCClient {
  const url = `${options.url.replace(/\/+$/, "")}/api/trpc`;
  const EventSourceImpl = options.EventSource ?? (globalThis.EventSource as SubscriptionOptions["EventSource"]);
  if (!EventSourceImpl) {
    throw new Error("no EventSource available: pass { EventSource } from the 'eventsource' package (Node 20 has none)");
  }
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
