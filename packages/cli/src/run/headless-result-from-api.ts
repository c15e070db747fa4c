import type { RouterOutputs } from "@handoff/api";
import type { HeadlessResult } from "@handoff/runtime";
import type { Handoff } from "@handoff/sdk";

/** What the API says about a finished session: enough for `handoff run`'s result object. */
export interface SessionRecord {
  session: RouterOutputs["session"]["get"];
  tree: RouterOutputs["agent"]["tree"];
  /** `agent.get` of every agent in the tree (the evidence the tree does not carry). */
  agents: RouterOutputs["agent"]["get"][];
  messages: RouterOutputs["session"]["messages"];
}

export async function readSessionRecord(handoff: Handoff, sessionId: string): Promise<SessionRecord> {
  const [session, tree, messages] = await Promise.all([
    handoff.trpc.session.get.query({ sessionId }),
    handoff.trpc.agent.tree.query({ sessionId }),
    handoff.trpc.session.messages.query({ sessionId }),
  ]);
  const agents = await Promise.all(tree.map((a) => handoff.trpc.agent.get.query({ agentId: a.id })));
  return { session, tree, agents, messages };
}

/**
 * `handoff run --output-format json`'s object, built from the API: the same object the
 * in-process mode reads from the database (`readHeadlessResult`), field for field.
 */
export function headlessResultFromApi(record: SessionRecord, durationMs: number): HeadlessResult {
  const { session, messages } = record;
  const detail = new Map(record.agents.map((a) => [a.id, a]));
  const root = detail.get(session.rootAgentId);
  if (!root) throw new Error(`session ${session.id} has no root agent`);
  const replied = root.stopReason === "reply";
  // Every turn starts by admitting messages (and only then): the root's turns are the turns that admitted its messages.
  const rootTurns = new Set(
    messages.flatMap((m) => (m.admittedTurnId && (m.targetAgentId === null || m.targetAgentId === root.id) ? [m.admittedTurnId] : [])),
  );
  // In creation order, as readHeadlessResult lists them (the tree lists them by depth).
  const agents = [...record.tree].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    type: "result",
    session_id: session.id,
    is_error: !replied,
    result: replied ? root.replyValue : null,
    stop_reason: root.stopReason,
    failure_tag: root.failureTag,
    verdict: root.evidence.verdict,
    evidence: {
      finalMessagePresent: root.evidence.finalMessagePresent,
      openTodoCount: root.evidence.openTodoCount,
      stopReason: root.stopReason,
    },
    num_turns: rootTurns.size,
    model_steps: session.usage.modelSteps,
    duration_ms: Math.round(durationMs),
    usage: { input_tokens: session.usage.inputTokens, output_tokens: session.usage.outputTokens },
    agents: agents.map((a) => ({
      id: a.id,
      parent_id: a.parentId,
      profile: a.profile,
      status: a.status,
      stop_reason: a.stopReason,
      failure_tag: a.failureTag,
      verdict: a.verdict,
      final_message_present: detail.get(a.id)?.evidence.finalMessagePresent ?? null,
      open_todo_count: detail.get(a.id)?.evidence.openTodoCount ?? null,
    })),
  };
}
