import { admit } from "@handoff/db";
import type { DriveContext } from "@handoff/worker/driver";
import type { AgentAtTurnStart } from "./agent-row";
import { appendMessages } from "./history";
import { inboxMessageText } from "./inbox-message-text";
import { setSessionStatus } from "@handoff/db";

export interface OpenTurn {
  turnId: string;
  modelSteps: number;
  nudges: number;
  /** Text of the first message admitted into a new turn (for a session title). */
  firstPrompt: string | null;
  resumed: boolean;
}

/**
 * The agent's running turn (after a crash), or a new one holding its queued messages.
 * Admission writes the messages into the agent's history and marks agent and session
 * running in the same transaction. `null` when there is nothing to do: nothing was queued
 * when the agent was read (the driver looks again before the session goes idle).
 */
export async function startTurn(ctx: DriveContext, { agent, running, queued }: AgentAtTurnStart): Promise<OpenTurn | null> {
  if (running) return { ...running, firstPrompt: null, resumed: true };
  if (!queued) return null;

  const admission = await admit(ctx.db, {
    sessionId: agent.sessionId,
    agentId: agent.id,
    isRoot: agent.parentId === null,
    epoch: ctx.lease.epoch,
    onAdmitted: async (tx, { turnId, messages }) => {
      const at = { sessionId: agent.sessionId, agentId: agent.id, turnId };
      await appendMessages(tx, at, messages.map((m) => ({ role: "user" as const, content: inboxMessageText(m) })));
      const changed = await tx`
        UPDATE agents SET status = 'running' WHERE id = ${agent.id} AND status <> 'running' RETURNING id`;
      return [
        ...(changed.length > 0 ? [{ type: "agent.start", ...at, data: { profile: agent.profile, parentId: agent.parentId } }] : []),
        ...(await setSessionStatus(tx, agent.sessionId, "running")),
      ];
    },
  });
  if (!admission.turnId || admission.messages.length === 0) return null;
  return {
    turnId: admission.turnId,
    modelSteps: 0,
    nudges: 0,
    firstPrompt: admission.messages[0] ? inboxMessageText(admission.messages[0]) : null,
    resumed: false,
  };
}

