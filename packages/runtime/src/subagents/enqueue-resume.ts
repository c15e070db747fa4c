import { appendEvents, HandoffError, newId, type NewEvent, type Tx } from "@handoff/db";
import { loadResumeHint, renderResumeMessage } from "./resume-hint";

/**
 * Queues a `resume` message for an ended returning agent: its context is the agent's open
 * todo items and its stop reason (C4's resume hint). The agent continues its own history
 * with a fresh step budget at its next turn. Refused for an agent that is still running.
 */
export async function enqueueResume(
  tx: Tx,
  input: { sessionId: string; agentId: string; idempotencyKey?: string; background?: boolean; requestedBy: string },
): Promise<{ messageId: string; duplicate: boolean }> {
  const [agent] = await tx<{ status: string; returning: boolean }[]>`
    SELECT status, "returning" FROM agents WHERE id = ${input.agentId} AND session_id = ${input.sessionId} FOR UPDATE`;
  if (!agent) throw new HandoffError("NOT_FOUND", `agent ${input.agentId} is not in session ${input.sessionId}`, input);
  if (input.idempotencyKey) {
    const [first] = await tx<{ id: string }[]>`
      SELECT id FROM inbox_messages WHERE session_id = ${input.sessionId} AND idempotency_key = ${input.idempotencyKey}`;
    if (first) return { messageId: first.id, duplicate: true };
  }
  if (!agent.returning) {
    throw new HandoffError("CONFLICT", `agent ${input.agentId} is an interactive root: send it a message instead of resuming it`);
  }
  if (!["done", "failed", "cancelled"].includes(agent.status)) {
    throw new HandoffError("CONFLICT", `agent ${input.agentId} is ${agent.status}; only an agent that has ended can be resumed`);
  }
  const hint = await loadResumeHint(tx, input.agentId);
  const messageId = newId("msg");
  await tx`
    INSERT INTO inbox_messages (id, session_id, target_agent_id, kind, payload, idempotency_key)
    VALUES (${messageId}, ${input.sessionId}, ${input.agentId}, 'resume',
            ${JSON.stringify({ text: renderResumeMessage(hint), hint })}::text::jsonb, ${input.idempotencyKey ?? null})`;
  if (input.background !== undefined) {
    await tx`UPDATE agents SET background = ${input.background} WHERE id = ${input.agentId}`;
  }
  const events: NewEvent[] = [
    {
      type: "message.queue",
      agentId: input.agentId,
      data: { messageId, kind: "resume", targetAgentId: input.agentId },
    },
    { type: "agent.resume", agentId: input.agentId, data: { messageId, requestedBy: input.requestedBy, hint } },
  ];
  await appendEvents(tx, input.sessionId, events);
  return { messageId, duplicate: false };
}
