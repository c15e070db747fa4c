"use client";

import type { AppRouter } from "@handoff/api";
import { QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import { getQueryClient } from "./query-client";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** Same origin: a future auth cookie rides along on every batch request and event stream. */
const API_URL = "/api/trpc";

/** Every read and write of the dashboard goes through this client: batched HTTP, SSE for subscriptions. */
export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        splitLink({
          condition: (op) => op.type === "subscription",
          // Browsers have EventSource; the link resumes from the last tracked id after a drop.
          true: httpSubscriptionLink({ url: API_URL }),
          false: httpBatchLink({ url: API_URL }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
