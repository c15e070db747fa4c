"use client";

import { useSubscription } from "@trpc/tanstack-react-query";
import { useTRPC } from "~/trpc/react";

/** Whole-session status transitions: the current status first, then each change (null until the first arrives). */
export function useSessionStatus(sessionId: string): string | null {
  const trpc = useTRPC();
  const subscription = useSubscription(trpc.session.status.subscriptionOptions({ sessionId, lastEventId: null }));
  return subscription.data?.data.status ?? null;
}
