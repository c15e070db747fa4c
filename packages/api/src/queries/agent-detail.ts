import { HandoffError, type Sql } from "@handoff/db";
import { expandRequest, loadResumeHint, renderResumeHint, type ResumeHint, type SentRequest } from "@handoff/runtime";

export interface ToolCallDetail {
  callId: string;
  name: string;
  args: unknown;
  status: string;
  result: unknown;
  isError: boolean;
  startedAt: string;
  endedAt: string | null;
}

export interface StepDetail {
  id: string;
  turnId: string;
  number: number;
  status: string;
  capped: boolean;
  /** What was sent to the model: system prompt, messages, tool names, tool choice. */
  request: unknown;
  responseText: string | null;
  finishReason: string | null;
  rawFinishReason: string | null;
  usage: { input: number; output: number };
  retries: number;
  error: string | null;
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  toolCalls: ToolCallDetail[];
}

/** Everything the inspector shows for one agent. */
export interface AgentDetail {
  id: string;
  sessionId: string;
  parentId: string | null;
  profile: string;
  model: string | null;
  returning: boolean;
  depth: number;
  status: string;
  background: boolean;
  stopReason: string | null;
  stopDetail: string | null;
  rawFinishReason: string | null;
  failureTag: string | null;
  /** The reply as sent: a string, an object or an array; null when there was none. */
  replyValue: unknown;
  partialText: string | null;
  evidence: {
    finalMessagePresent: boolean | null;
    openTodoCount: number | null;
    stopReason: string | null;
    verdict: string | null;
    verdictRule: string | null;
  };
  todos: { id: string; content: string; status: string }[];
  ledgerKept: boolean;
  resumeHint: (ResumeHint & { text: string }) | null;
  usage: { inputTokens: number; outputTokens: number; modelSteps: number };
  children: string[];
  createdAt: string;
  endedAt: string | null;
  steps: StepDetail[];
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function agentDetail(sql: Sql, agentId: string): Promise<AgentDetail> {
  const [a] = await sql`SELECT * FROM agents WHERE id = ${agentId}`;
  if (!a) throw new HandoffError("NOT_FOUND", `agent ${agentId} does not exist`, { agentId });
  const [todos, children, steps, calls, history] = await Promise.all([
    sql<{ id: string; content: string; status: string }[]>`
      SELECT id, content, status FROM todos WHERE agent_id = ${agentId} ORDER BY position`,
    sql<{ id: string }[]>`SELECT id FROM agents WHERE parent_id = ${agentId} ORDER BY created_at`,
    sql`SELECT * FROM model_steps WHERE agent_id = ${agentId} ORDER BY started_at`,
    sql`SELECT * FROM tool_calls WHERE agent_id = ${agentId} ORDER BY started_at`,
    // Steps record their request by reference to this history (see StoredRequest).
    sql<{ content: SentRequest["messages"][number] }[]>`SELECT content FROM agent_messages WHERE agent_id = ${agentId} ORDER BY id`,
  ]);
  const messages = history.map((m) => m.content);
  const ended = ["done", "failed", "cancelled"].includes(a.status) || (a.stop_reason !== null && a.status === "idle");
  const hint = ended && a.returning ? await loadResumeHint(sql, agentId) : null;
  return {
    id: a.id,
    sessionId: a.session_id,
    parentId: a.parent_id,
    profile: a.profile,
    model: a.model,
    returning: a.returning,
    depth: a.depth,
    status: a.status,
    background: a.background,
    stopReason: a.stop_reason,
    stopDetail: a.stop_detail,
    rawFinishReason: a.raw_finish_reason,
    failureTag: a.failure_tag,
    replyValue: a.reply_value,
    partialText: a.partial_text,
    evidence: {
      finalMessagePresent: a.final_message_present,
      openTodoCount: a.open_todo_count,
      stopReason: a.stop_reason,
      verdict: a.verdict,
      verdictRule: a.verdict_rule,
    },
    todos,
    ledgerKept: a.ledger_kept,
    resumeHint: hint ? { ...hint, text: renderResumeHint(hint) } : null,
    usage: { inputTokens: a.input_tokens, outputTokens: a.output_tokens, modelSteps: a.model_steps },
    children: children.map((c) => c.id),
    createdAt: iso(a.created_at)!,
    endedAt: iso(a.ended_at),
    steps: steps.map((s) => ({
      id: s.id,
      turnId: s.turn_id,
      number: s.number,
      status: s.status,
      capped: s.capped,
      request: expandRequest(s.request, messages),
      responseText: s.response_text,
      finishReason: s.finish_reason,
      rawFinishReason: s.raw_finish_reason,
      usage: { input: s.input_tokens, output: s.output_tokens },
      retries: s.retries,
      error: s.error,
      startedAt: iso(s.started_at)!,
      endedAt: iso(s.ended_at),
      durationMs: s.ended_at ? new Date(s.ended_at).getTime() - new Date(s.started_at).getTime() : null,
      toolCalls: calls
        .filter((c) => c.step_id === s.id)
        .map((c) => ({
          callId: c.call_id,
          name: c.name,
          args: c.args,
          status: c.status,
          result: c.result,
          isError: c.is_error,
          startedAt: iso(c.started_at)!,
          endedAt: iso(c.ended_at),
        })),
    })),
  };
}

export interface AgentNode {
  id: string;
  parentId: string | null;
  profile: string;
  status: string;
  stopReason: string | null;
  failureTag: string | null;
  verdict: string | null;
  depth: number;
  modelSteps: number;
  createdAt: string;
}

/** The session's agents, parents before children, for the tree view. */
export async function agentTree(sql: Sql, sessionId: string): Promise<AgentNode[]> {
  const rows = await sql`
    SELECT id, parent_id, profile, status, stop_reason, failure_tag, verdict, depth, model_steps, created_at
    FROM agents WHERE session_id = ${sessionId} ORDER BY depth, created_at`;
  if (rows.length === 0) throw new HandoffError("NOT_FOUND", `session ${sessionId} does not exist`, { sessionId });
  return rows.map((r) => ({
    id: r.id,
    parentId: r.parent_id,
    profile: r.profile,
    status: r.status,
    stopReason: r.stop_reason,
    failureTag: r.failure_tag,
    verdict: r.verdict,
    depth: r.depth,
    modelSteps: r.model_steps,
    createdAt: iso(r.created_at)!,
  }));
}
