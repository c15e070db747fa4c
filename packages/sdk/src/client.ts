import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink, type TRPCClient } from "@trpc/client";
import type { AppRouter } from "@handoff/api";

export interface ClientOptions {
  /** The service's base URL, e.g. http://127.0.0.1:3000 */
  url: string;
  /** Sent with every request (e.g. an authorization header). */
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
        true: httpSubscriptionLink({ url, EventSource: EventSourceImpl }),
        false: httpBatchLink({ url, headers: () => options.headers ?? {}, fetch: options.fetch }),
      }),
    ],
  });
}
