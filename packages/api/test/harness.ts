import { createTRPCClient, httpBatchLink } from "@trpc/client";
import type { AppRouter, ServiceContext } from "../src/index";
import { useServedApi } from "../src/testing/use-served-api";

/** The served API with a plain tRPC client over real HTTP, as any caller would use. */
export function useApi(limits: Partial<ServiceContext["limits"]> = {}, options: { requestsPerMinute?: number } = {}) {
  const api = useServedApi(limits, options);
  return Object.assign(api, {
    client(as: string | null = api.token) {
      return createTRPCClient<AppRouter>({
        links: [httpBatchLink({ url: `${api.url}/api/trpc`, headers: () => (as ? { authorization: `Bearer ${as}` } : {}) })],
      });
    },
  });
}
