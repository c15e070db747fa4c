"use client";

import { useSubscription } from "@trpc/tanstack-react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { EMPTY_LOG, mergeEvents, type EventLog } from "~/lib/event-log";
import { useTRPC } from "~/trpc/react";
import type { WireEvent } from "~/trpc/types";

export type StreamState = "connecting" | "live" | "reconnecting" | "error";

/**
 * The session's durable events, replayed from the start and then live. The tRPC link resumes
 * a dropped stream from the last tracked seq (Last-Event-ID); should the stream fail outright,
 * it is opened again from the last seq held. Rows are deduplicated by seq either way.
 */
export function useSessionEvents(sessionId: string, onEvent?: (e: WireEvent) => void) {
  const trpc = useTRPC();
  const [log, setLog] = useState<EventLog>(EMPTY_LOG);
  const [resumeFrom, setResumeFrom] = useState<string | null>(null);
  const lastSeq = useRef(0);
  const pending = useRef<WireEvent[]>([]);
  const flushTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;

  const flush = useCallback(() => {
    flushTimer.current = null;
    const batch = pending.current;
    pending.current = [];
    setLog((current) => mergeEvents(current, batch));
  }, []);

  const subscription = useSubscription(
    trpc.session.events.subscriptionOptions(
      { sessionId, lastEventId: resumeFrom },
      {
        onData: ({ data }) => {
          lastSeq.current = Math.max(lastSeq.current, data.seq);
          pending.current.push(data);
          onEventRef.current?.(data);
          // Replays arrive hundreds at once: one render per ~frame, not per event.
          flushTimer.current ??= setTimeout(flush, 40);
        },
      },
    ),
  );

  const failed = subscription.status === "error";
  const code = subscription.error?.data?.code;
  useEffect(() => {
    // Retrying cannot fix these; the page shows them.
    if (!failed || (code && ["NOT_FOUND", "BAD_REQUEST", "UNAUTHORIZED", "FORBIDDEN"].includes(code))) return;
    const timer = setTimeout(() => setResumeFrom(String(lastSeq.current)), 2_000);
    return () => clearTimeout(timer);
  }, [failed, code]);

  useEffect(() => () => void (flushTimer.current && clearTimeout(flushTimer.current)), []);

  const state: StreamState =
    subscription.status === "pending" ? "live" : subscription.status === "error" ? "error" : log.lastSeq > 0 ? "reconnecting" : "connecting";
  return { log, state, error: subscription.error };
}
