import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "./root";
import type { ApiContext } from "./trpc";

/** The `/api/trpc` handler: batch queries and mutations over HTTP, subscriptions over SSE. */
export function createApiHandler(context: () => Promise<ApiContext> | ApiContext, endpoint = "/api/trpc") {
  return (req: Request) =>
    fetchRequestHandler({
      endpoint,
      req,
      router: appRouter,
      createContext: () => context(),
    });
}
