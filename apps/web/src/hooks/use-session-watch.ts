"use client";

import { skipToken } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useRef, useState } from "react";
import { useTRPC } from "~/trpc/react";
import type { WireEvent } from "~/trpc/types";

/**
 * Watches the session's events from `fromSeq` on without keeping them (the inspector only
 * needs to know what changed). The start seq is fixed at the first value given, so the
 * stream is opened once; the link resumes it after a drop.
 */
export function useSessionWatch(sessionId: string, fromSeq: number | undefined, onEvent: (e: WireEvent) => void): boolean {
  const trpc = useTRPC();
  const [start, setStart] = useState<number | undefined>(fromSeq);
  if (start === undefined && fromSeq !== undefined) setStart(fromSeq);
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;
  const subscription = useSubscription(
    trpc.session.events.subscriptionOptions(start === undefined ? skipToken : { sessionId, lastEventId: String(start) }, {
      onData: ({ data }) => onEventRef.current(data),
    }),
  );
  return subscription.status === "pending";
}
