import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { requestToken } from "./auth/request-token";
import { appRouter } from "./root";
import type { ApiContext, ServiceContext } from "./trpc";

/** The `/api/trpc` handler: batch queries and mutations over HTTP, subscriptions over SSE. */
export function createApiHandler(service: () => Promise<ServiceContext> | ServiceContext, endpoint = "/api/trpc") {
  return (req: Request) =>
    fetchRequestHandler({
      endpoint,
      req,
      router: appRouter,
      createContext: async ({ info }): Promise<ApiContext> => {
        const base = await service();
        const token = requestToken(req, info.connectionParams);
        return { ...base, auth: token ? await base.tokens.verify(token) : null };
      },
    });
}
