import { QueryClient } from "@tanstack/react-query";

/** One client per browser tab; the server renders with a throwaway one (nothing is prefetched there). */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Live views refetch on events or on an interval; a short stale time avoids double fetches on mount.
        staleTime: 1_000,
        retry: (count, error) => count < 2 && !/NOT_FOUND|BAD_REQUEST|UNAUTHORIZED|FORBIDDEN/.test(String((error as { data?: { code?: string } }).data?.code)),
        refetchOnWindowFocus: true,
      },
    },
  });
}

let browserClient: QueryClient | undefined;

export function getQueryClient(): QueryClient {
  if (typeof window === "undefined") return makeQueryClient();
  browserClient ??= makeQueryClient();
  return browserClient;
}
