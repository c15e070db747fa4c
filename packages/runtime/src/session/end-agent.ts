import { appendEvents, fencedTransaction, newId, redact, type Db, type Lease, type NewEvent, type Tx } from "@handoff/db";
import type { Webhook } from "../hooks/hook-config";
import { enqueueHooks } from "../hooks/enqueue-hooks";
import { renderChildResult } from "../subagents/child-result";
import { openTodos } from "../subagents/resume-hint";
import type { AgentRow } from "./agent-row";
import { judge, present, type Evidence, type StopReason } from "./evidence";
import { setSessionStatus } from "@handoff/db";

export interface Stop {
  reason: StopReason;
  /** Error text or other detail for the reason. */
  detail?: string | null;
  rawFinishReason?: string | null;
  /** The accepted reply's value (reason `reply`). */
  replyValue?: unknown;
  /** An interactive root's final assistant text for this turn. */
  finalText?: string | null;
  /** A failed returning agent's last written text, kept as partial (C3). */
  partialText?: string | null;
  /** Failure tag other than the stop reason (`abandoned`). */
  failureTag?: string;
}

export interface Ended {
  evidence: Evidence;
  /** Descendants cancelled because a headless root ended (orchestrate-and-abandon). */
  abandoned: string[];
}

interface EndScope {
  db: Db;
  lease: Lease;
  webhooks: Webhook[];
}

/**
 * Ends the turn and records the agent's stop facts and C4 evidence, with their events and
 * hooks, in one fenced transaction. A returning agent that stopped without a reply is Failed
 * with the reason as failure tag; an interactive root goes idle. A background child's result
 * goes to its parent's inbox in the same transaction, so it survives any crash after it.
 */
export async function endAgent(
  scope: EndScope,
  agent: AgentRow,
  turnId: string,
  stop: Stop,
  settleStepId: string | null,
): Promise<Ended> {
  return fencedTransaction(scope.db, scope.lease, async (tx) => {
    const events: NewEvent[] = [];
    const evidence = await recordEnd(tx, scope.webhooks, agent, turnId, stop, events);
    if (settleStepId) await tx`UPDATE model_steps SET status = 'settled' WHERE id = ${settleStepId}`;
    let abandoned: string[] = [];
    if (agent.parentId === null && agent.mode === "headless") {
      abandoned = await abandonDescendants(tx, scope.webhooks, agent, events);
      events.push(...(await setSessionStatus(tx, agent.sessionId, "ended")));
    }
    await appendEvents(tx, agent.sessionId, events);
    return { evidence, abandoned };
  });
}

export async function recordEnd(
  tx: Tx,
  webhooks: Webhook[],
  agent: AgentRow,
  turnId: string | null,
  stop: Stop,
  events: NewEvent[],
): Promise<Evidence> {
  const [state] = await tx<{ ledgerKept: boolean; open: number; background: boolean }[]>`
    SELECT a.ledger_kept AS "ledgerKept", a.background,
           (SELECT count(*)::int FROM todos t WHERE t.agent_id = a.id AND t.status IN ('pending', 'in_progress')) AS open
    FROM agents a WHERE a.id = ${agent.id}`;
  const replied = stop.reason === "reply";
  const evidence = judge({
    finalMessagePresent: agent.returning ? replied : present(stop.finalText),
    openTodoCount: state!.ledgerKept ? state!.open : null,
    stopReason: stop.reason,
  });
  const failed = agent.returning && !replied;
  const status = replied ? "done" : !failed ? "idle" : stop.reason === "cancelled" ? "cancelled" : "failed";
  const failureTag = failed ? (stop.failureTag ?? stop.reason) : null;
  const partialText = failed ? (stop.partialText ?? null) : null;
  await tx`
    UPDATE agents SET status = ${status}::agent_status, stop_reason = ${stop.reason}::stop_reason,
      stop_detail = ${stop.detail ?? null}, raw_finish_reason = ${stop.rawFinishReason ?? null},
      failure_tag = ${failureTag}, final_message_present = ${evidence.finalMessagePresent},
      open_todo_count = ${evidence.openTodoCount}, verdict = ${evidence.verdict}::verdict,
      verdict_rule = ${evidence.verdictRule},
      reply_value = ${replied ? redact(JSON.stringify(stop.replyValue)) : null}::text::jsonb,
      partial_text = ${partialText === null ? null : redact(partialText)}, ended_at = now()
    WHERE id = ${agent.id}`;
  if (turnId) {
    await tx`UPDATE turns SET status = 'ended', stop_reason = ${stop.reason}::stop_reason, ended_at = now() WHERE id = ${turnId}`;
  }
  if (replied) events.push({ type: "agent.reply", agentId: agent.id, turnId, data: { value: stop.replyValue } });
  if (turnId) events.push({ type: "turn.end", agentId: agent.id, turnId, data: { stopReason: stop.reason } });
  events.push({
    type: "agent.end",
    agentId: agent.id,
    turnId,
    data: {
      status,
      stopReason: stop.reason,
      detail: stop.detail ?? null,
      rawFinishReason: stop.rawFinishReason ?? null,
      failureTag,
      evidence,
      ...(partialText ? { partialText } : {}),
    },
  });
  await enqueueHooks(tx, webhooks, {
    event: agent.parentId === null ? "Stop" : "SubagentStop",
    sessionId: agent.sessionId,
    agentId: agent.id,
    parentId: agent.parentId,
    profile: agent.profile,
    status,
    failureTag,
    evidence,
  });
  if (agent.parentId !== null && state!.background) {
    const messageId = newId("msg");
    const text = renderChildResult({
      agentId: agent.id,
      profile: agent.profile,
      status,
      stopReason: stop.reason,
      stopDetail: stop.detail ?? null,
      failureTag,
      replyValue: replied ? stop.replyValue : null,
      partialText,
      evidence,
      openTodos: await openTodos(tx, agent.id),
    });
    await tx`
      INSERT INTO inbox_messages (id, session_id, target_agent_id, kind, payload)
      VALUES (${messageId}, ${agent.sessionId}, ${agent.parentId}, 'child_result',
              ${JSON.stringify({ text, childId: agent.id })}::text::jsonb)`;
    events.push({
      type: "message.queue",
      agentId: agent.parentId,
      data: { messageId, kind: "child_result", targetAgentId: agent.parentId, childId: agent.id },
    });
  }
  return evidence;
}

/**
 * C1's orchestrate-and-abandon: when a headless root ends, every descendant still pending or
 * running is cancelled with failure tag `abandoned`; its queued messages are cancelled and its
 * running turn ended. The tokens it used so far stay on its row and count in the run's usage.
 */
async function abandonDescendants(tx: Tx, webhooks: Webhook[], root: AgentRow, events: NewEvent[]): Promise<string[]> {
  const live = await tx<(AgentRow & { turnId: string | null })[]>`
    WITH RECURSIVE tree AS (
      SELECT id FROM agents WHERE parent_id = ${root.id}
      UNION ALL SELECT a.id FROM agents a JOIN tree ON a.parent_id = tree.id)
    SELECT a.id, a.session_id AS "sessionId", a.parent_id AS "parentId", a.profile, a.model, a.config, a."returning",
           a.depth, a.status, a.ledger_kept AS "ledgerKept",
           (SELECT t.id FROM turns t WHERE t.agent_id = a.id AND t.status = 'running' LIMIT 1) AS "turnId"
    FROM agents a JOIN tree ON tree.id = a.id
    WHERE a.status IN ('pending', 'running')`;
  for (const child of live) {
    await tx`UPDATE model_steps SET status = 'abandoned', ended_at = now() WHERE agent_id = ${child.id} AND status = 'running'`;
    await tx`
      UPDATE inbox_messages SET state = 'cancelled', cancelled_at = now() WHERE target_agent_id = ${child.id} AND state = 'queued'`;
    // A foreground child's result would go to a parent that has ended: nothing to deliver.
    await tx`UPDATE agents SET background = false WHERE id = ${child.id}`;
    await recordEnd(
      tx,
      webhooks,
      { ...child, mode: root.mode, sessionTitle: null },
      child.turnId,
      { reason: "cancelled", failureTag: "abandoned", detail: "the headless root ended before this agent finished" },
      events,
    );
  }
  return live.map((c) => c.id);
}
