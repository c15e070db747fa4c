import { appendEvents, fencedTransaction, newId } from "@handoff/db";
import type { AgentRow } from "../session/agent-row";
import { StopDriving } from "../session/stop-driving";
import type { TurnContext } from "../session/turn-context";
import { ToolError } from "../tools/define-tool";
import { enqueueHooks } from "../hooks/enqueue-hooks";
import { loadChildFacts, renderChildResult } from "./child-result";
import { enqueueResume } from "./enqueue-resume";

/** The parent's tool call a subagent belongs to: a re-run of the call finds the same child. */
export interface CallRef {
  stepId: string;
  callId: string;
}

export interface SubagentService {
  spawn(args: { profile: string; prompt: string; background: boolean }, call: CallRef): Promise<string>;
  resume(args: { agentId: string; background: boolean }, call: CallRef): Promise<string>;
}

/** What the `task` tool can do for one parent agent in one turn. */
export function subagentService(t: TurnContext, parent: AgentRow): SubagentService {
  const { db, lease } = t.ctx;

  const deliver = async (childId: string, profile: string, background: boolean): Promise<string> => {
    if (background) {
      void t.runners.ensure(childId).catch((e: Error) => t.ctx.log.warn({ agentId: childId, error: e.message }, "subagent stopped"));
      return (
        `Started subagent ${childId} (${profile}) in the background. Its result will arrive as a message when it ends; ` +
        "continue with other work meanwhile."
      );
    }
    await t.runners.ensure(childId);
    if (t.ctx.signal.aborted) throw t.ctx.signal.reason;
    const facts = await loadChildFacts(db.sql, childId);
    if (facts.status === "running" || facts.status === "pending") throw new StopDriving(`subagent ${childId} is still running`);
    return renderChildResult(facts);
  };

  return {
    async spawn(args, call) {
      const spawnedBy = `${call.stepId}:${call.callId}`;
      const [existing] = await db.sql<{ id: string; profile: string }[]>`
        SELECT id, profile FROM agents WHERE spawned_by = ${spawnedBy}`;
      if (existing) return deliver(existing.id, existing.profile, args.background);

      let profileModel: string | undefined;
      try {
        profileModel = t.rt.profiles.get(args.profile).model;
      } catch (e) {
        throw new ToolError((e as Error).message);
      }
      const depth = parent.depth + 1;
      if (depth > t.rt.env.HANDOFF_MAX_DEPTH) {
        throw new ToolError(
          `subagents may nest ${t.rt.env.HANDOFF_MAX_DEPTH} deep (HANDOFF_MAX_DEPTH); this one would be at depth ${depth}. Do the work yourself.`,
        );
      }
      const childId = newId("agt");
      const messageId = newId("msg");
      const model = profileModel ?? parent.model ?? null;
      const config = parent.config.baseUrl && !profileModel ? { baseUrl: parent.config.baseUrl } : {};
      await fencedTransaction(db, lease, async (tx) => {
        // Counted under the session's row lock (taken by the fence): parallel `task` calls of one
        // batch spawn one after the other, each seeing the children the others committed.
        const [{ running }] = (await tx<{ running: number }[]>`
          SELECT count(*)::int AS running FROM agents WHERE parent_id = ${parent.id} AND status IN ('pending', 'running')`) as unknown as [
          { running: number },
        ];
        if (running >= t.rt.env.HANDOFF_MAX_CHILDREN) {
          throw new ToolError(
            `you already have ${running} subagents running (limit ${t.rt.env.HANDOFF_MAX_CHILDREN}, HANDOFF_MAX_CHILDREN); wait for one to end`,
          );
        }
        await tx`
          INSERT INTO agents (id, session_id, parent_id, profile, model, config, "returning", depth, spawned_by, background)
          VALUES (${childId}, ${parent.sessionId}, ${parent.id}, ${args.profile}, ${model}, ${JSON.stringify(config)}::text::jsonb,
                  true, ${depth}, ${spawnedBy}, ${args.background})`;
        await tx`
          INSERT INTO inbox_messages (id, session_id, target_agent_id, kind, payload)
          VALUES (${messageId}, ${parent.sessionId}, ${childId}, 'prompt', ${JSON.stringify({ text: args.prompt })}::text::jsonb)`;
        await enqueueHooks(tx, t.rt.webhooks, {
          event: "SubagentStart",
          sessionId: parent.sessionId,
          agentId: childId,
          parentId: parent.id,
          profile: args.profile,
          status: "pending",
          failureTag: null,
          evidence: null,
        });
        await appendEvents(tx, parent.sessionId, [
          {
            type: "agent.spawn",
            agentId: parent.id,
            turnId: t.turnId,
            data: { childId, profile: args.profile, background: args.background, depth, callId: call.callId },
          },
          { type: "message.queue", agentId: childId, data: { messageId, kind: "prompt", targetAgentId: childId } },
        ]);
      });
      return deliver(childId, args.profile, args.background);
    },

    async resume(args, call) {
      if (args.agentId === parent.id) throw new ToolError("an agent cannot resume itself");
      const [target] = await db.sql<{ profile: string }[]>`
        SELECT profile FROM agents WHERE id = ${args.agentId} AND session_id = ${parent.sessionId}`;
      if (!target) throw new ToolError(`no agent ${args.agentId} in this session`);
      try {
        await fencedTransaction(db, lease, (tx) =>
          enqueueResume(tx, {
            sessionId: parent.sessionId,
            agentId: args.agentId,
            idempotencyKey: `resume:${call.stepId}:${call.callId}`,
            background: args.background,
            requestedBy: parent.id,
          }),
        );
      } catch (e) {
        if ((e as { code?: string }).code === "CONFLICT") throw new ToolError((e as Error).message);
        throw e;
      }
      return deliver(args.agentId, target.profile, args.background);
    },
  };
}
