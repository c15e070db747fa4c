import { appendEvents, fencedTransaction } from "@handoff/db";
import type { DriveContext, SessionDriver } from "@handoff/worker/driver";
import { AgentRunners } from "./agent-runners";
import { onSessionCancel } from "./cancel-watcher";
import { recordCancellation } from "./record-cancellation";
import { setSessionStatus } from "@handoff/db";
import type { Runtime } from "./turn-context";

/**
 * The runtime's session driver: a runner for every agent with work (a turn a dead worker
 * left running, or queued messages), side by side, until nothing is admissible; then the
 * session goes idle. Stops at step boundaries when the worker drains or the lease is lost.
 */
export function createSessionDriver(rt: Runtime): SessionDriver {
  return {
    async drive(ctx: DriveContext): Promise<void> {
      const runners = new AgentRunners(rt, ctx);
      let cancelled = false;
      const unwatch = await onSessionCancel(ctx.db, ctx.lease.sessionId, () => {
        cancelled = true;
        runners.abortAll("cancelled by request");
      });
      try {
        // A cancel that arrived while no worker held the session is honoured first.
        await recordCancellation(ctx, rt.webhooks);
        while (!ctx.signal.aborted && !ctx.draining.aborted) {
          if (cancelled) {
            cancelled = false;
            await runners.settle();
            await recordCancellation(ctx, rt.webhooks);
          }
          for (const agentId of await agentsWithWork(ctx)) {
            if (!runners.has(agentId)) void runners.ensure(agentId).catch(() => {});
          }
          if (runners.size === 0) {
            await fencedTransaction(ctx.db, ctx.lease, async (tx) => {
              const events = await setSessionStatus(tx, ctx.lease.sessionId, "idle");
              if (events.length > 0) await appendEvents(tx, ctx.lease.sessionId, events);
            });
            return;
          }
          await runners.any();
        }
      } finally {
        unwatch();
        await runners.settle();
      }
    },
  };
}

/** Agents of the session with a running turn or queued messages, oldest first. */
async function agentsWithWork(ctx: DriveContext): Promise<string[]> {
  const sessionId = ctx.lease.sessionId;
  const rows = await ctx.db.sql<{ id: string }[]>`
    SELECT a.id FROM agents a
    WHERE a.session_id = ${sessionId}
      AND (EXISTS (SELECT 1 FROM turns t WHERE t.agent_id = a.id AND t.status = 'running')
        OR EXISTS (SELECT 1 FROM inbox_messages m
                   WHERE m.session_id = ${sessionId} AND m.state = 'queued'
                     AND (m.target_agent_id = a.id OR (m.target_agent_id IS NULL AND a.parent_id IS NULL))))
    ORDER BY a.created_at`;
  return rows.map((r) => r.id);
}
