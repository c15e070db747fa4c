"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef } from "react";
import { useTRPC } from "~/trpc/react";
import type { WireEvent } from "~/trpc/types";

const AGENT_EVENTS = /^(agent\.|turn\.|model-step\.|tool-call\.end|todo\.update)/;

/**
 * Turns the session's events into refetches of what they change (the tree, the inbox, the
 * summary, one agent's detail), gathered over a short window so a burst costs one request.
 */
export function useLiveInvalidation(sessionId: string): (e: WireEvent) => void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pending = useRef(new Set<string>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const flush = useCallback(() => {
    timer.current = null;
    const keys = [...pending.current];
    pending.current.clear();
    for (const key of keys) {
      if (key === "session") void queryClient.invalidateQueries(trpc.session.get.queryFilter({ sessionId }));
      else if (key === "tree") void queryClient.invalidateQueries(trpc.agent.tree.queryFilter({ sessionId }));
      else if (key === "messages") void queryClient.invalidateQueries(trpc.session.messages.queryFilter({ sessionId }));
      else if (key.startsWith("agent:")) void queryClient.invalidateQueries(trpc.agent.get.queryFilter({ agentId: key.slice(6) }));
    }
  }, [queryClient, trpc, sessionId]);

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  return useCallback(
    (e: WireEvent) => {
      const keys = pending.current;
      if (e.type.startsWith("message.") || e.type === "session.cancel" || e.type === "agent.resume") keys.add("messages");
      if (e.type.startsWith("session.") || e.type === "model-step.end" || e.type === "agent.end") keys.add("session");
      if (AGENT_EVENTS.test(e.type)) {
        keys.add("tree");
        if (e.agentId) keys.add(`agent:${e.agentId}`);
        const child = (e.data as { childId?: unknown }).childId;
        if (typeof child === "string") keys.add(`agent:${child}`);
      }
      if (keys.size > 0) timer.current ??= setTimeout(flush, 250);
    },
    [flush],
  );
}
