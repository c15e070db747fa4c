import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { requestContext } from "./auth/request-context";
import { parseSubscriptionCall, subscriptionResponse } from "./events/subscription-response";
import { answerMutations } from "./http/mutation-calls";
import { bodyTooLargeAnswer, maxRequestBytes, readRequestText } from "./http/request-body";
import { appRouter } from "./root";
import type { ApiContext, ServiceContext } from "./trpc";

type Service = () => Promise<ServiceContext> | ServiceContext;

/**
 * The `/api/trpc` handler the web app mounts: POSTed mutations answered directly
 * (`answerMutations`), everything else by `createTrpcHandler`.
 */
export function createApiHandler(service: Service, endpoint = "/api/trpc") {
  const trpc = createTrpcHandler(service, endpoint);
  return async (req: Request): Promise<Response> => {
    if (req.method !== "POST") return trpc(req);
    const url = new URL(req.url);
    const context = await service();
    const limit = maxRequestBytes(context.limits.maxPayloadBytes);
    const body = await readRequestText(req, limit);
    if (body === null) {
      const refused = bodyTooLargeAnswer(url, endpoint, limit);
      return new Response(refused.json, { status: refused.status, headers: { "content-type": "application/json", connection: "close" } });
    }
    const answer = await answerMutations(context, {
      path: url.pathname.slice(endpoint.length + 1),
      search: url.searchParams,
      body,
      header: (name) => req.headers.get(name),
    });
    if (answer) return new Response(answer.json, { status: answer.status, headers: { "content-type": "application/json" } });
    return trpc(new Request(req.url, { method: req.method, headers: req.headers, body, signal: req.signal }));
  };
}

/**
 * The app router over HTTP: subscriptions over SSE written by events/subscription-response.ts
 * (the same procedure, context, middlewares and wire format as tRPC's, without its per-item
 * stream pipeline); queries, batches and malformed calls by tRPC's fetch adapter.
 */
export function createTrpcHandler(service: Service, endpoint = "/api/trpc") {
  const contextFor = async (req: Request, connectionParams: Record<string, unknown> | null | undefined): Promise<ApiContext> =>
    requestContext(await service(), (name) => req.headers.get(name), connectionParams);
  return async (req: Request): Promise<Response> => {
    const subscription = parseSubscriptionCall(req, appRouter, endpoint);
    if (subscription) {
      return subscriptionResponse(req, subscription, { router: appRouter, createContext: () => contextFor(req, subscription.connectionParams) });
    }
    return fetchRequestHandler({ endpoint, req, router: appRouter, createContext: ({ info }) => contextFor(req, info.connectionParams) });
  };
}
