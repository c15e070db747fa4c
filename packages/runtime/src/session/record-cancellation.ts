import { appendEvents, fencedTransaction, setSessionStatus, type NewEvent } from "@handoff/db";
import type { DriveContext } from "@handoff/worker/driver";
import type { Webhook } from "../hooks/hook-config";
import type { AgentRow } from "./agent-row";
import { recordEnd } from "./end-agent";

/**
 * Ends every turn that was running when a whole-session cancel was requested: each agent
 * stops with `cancelled`, its running step is abandoned. An interactive session goes idle
 * (it takes new prompts); a headless one is cancelled. Returns how many turns it ended.
 */
export async function recordCancellation(ctx: DriveContext, webhooks: Webhook[]): Promise<number> {
  const sessionId = ctx.lease.sessionId;
  // Usually there is nothing to cancel: one read says so. A cancel requested after it reaches
  // the driver's cancel watcher, which is listening before this is called.
  const [pending] = await ctx.db.sql`
    SELECT 1 FROM sessions s
    WHERE s.id = ${sessionId} AND s.cancel_requested_at IS NOT NULL
      AND EXISTS (SELECT 1 FROM turns t WHERE t.session_id = s.id AND t.status = 'running' AND t.started_at <= s.cancel_requested_at)`;
  if (!pending) return 0;
  return fencedTransaction(ctx.db, ctx.lease, async (tx) => {
    const running = await tx<(AgentRow & { turnId: string })[]>`
      SELECT a.id, a.session_id AS "sessionId", a.parent_id AS "parentId", a.profile, a.model, a.config, a."returning",
             a.depth, a.status, a.ledger_kept AS "ledgerKept", s.mode, s.title AS "sessionTitle", t.id AS "turnId"
      FROM turns t JOIN agents a ON a.id = t.agent_id JOIN sessions s ON s.id = t.session_id
      WHERE t.session_id = ${sessionId} AND t.status = 'running'
        AND s.cancel_requested_at IS NOT NULL AND t.started_at <= s.cancel_requested_at`;
    if (running.length === 0) return 0;
    const events: NewEvent[] = [];
    for (const agent of running) {
      await tx`UPDATE model_steps SET status = 'abandoned', ended_at = now() WHERE turn_id = ${agent.turnId} AND status = 'running'`;
      await recordEnd(tx, webhooks, agent, agent.turnId, { reason: "cancelled", detail: "cancelled by request" }, events);
    }
    const mode = running[0]!.mode;
    events.push(...(await setSessionStatus(tx, sessionId, mode === "headless" ? "cancelled" : "idle")));
    await appendEvents(tx, sessionId, events);
    return running.length;
  });
}
