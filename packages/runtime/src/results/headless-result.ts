import type { Db } from "@handoff/db";

/** One agent in `handoff run --output-format json`'s `agents` list. */
export interface AgentSummary {
  id: string;
  parent_id: string | null;
  profile: string;
  status: string;
  stop_reason: string | null;
  failure_tag: string | null;
  verdict: string | null;
  final_message_present: boolean | null;
  open_todo_count: number | null;
}

/** The object `handoff run --output-format json` prints (DESIGN.md, "Interfaces others script against"). */
export interface HeadlessResult {
  type: "result";
  session_id: string;
  is_error: boolean;
  /** The root's reply value as sent (string, object or array), or null when it never replied. */
  result: unknown;
  stop_reason: string | null;
  failure_tag: string | null;
  verdict: string | null;
  evidence: { finalMessagePresent: boolean | null; openTodoCount: number | null; stopReason: string | null };
  num_turns: number;
  model_steps: number;
  duration_ms: number;
  usage: { input_tokens: number; output_tokens: number };
  agents: AgentSummary[];
}

/** Reads a headless session's result from the run's own bookkeeping; nothing is scraped from text. */
export async function readHeadlessResult(db: Db, sessionId: string, durationMs: number): Promise<HeadlessResult> {
  const agents = await db.sql<(AgentSummary & { reply_value: unknown; model_steps: number; input_tokens: number; output_tokens: number })[]>`
    SELECT id, parent_id, profile, status, stop_reason, failure_tag, verdict, final_message_present, open_todo_count,
           reply_value, model_steps, input_tokens, output_tokens
    FROM agents WHERE session_id = ${sessionId} ORDER BY created_at, id`;
  const root = agents.find((a) => a.parent_id === null);
  if (!root) throw new Error(`session ${sessionId} has no root agent`);
  const [turns] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM turns WHERE agent_id = ${root.id}`;
  const replied = root.stop_reason === "reply";
  return {
    type: "result",
    session_id: sessionId,
    is_error: !replied,
    result: replied ? root.reply_value : null,
    stop_reason: root.stop_reason,
    failure_tag: root.failure_tag,
    verdict: root.verdict,
    evidence: {
      finalMessagePresent: root.final_message_present,
      openTodoCount: root.open_todo_count,
      stopReason: root.stop_reason,
    },
    num_turns: turns?.n ?? 0,
    model_steps: agents.reduce((n, a) => n + a.model_steps, 0),
    duration_ms: Math.round(durationMs),
    usage: {
      input_tokens: agents.reduce((n, a) => n + a.input_tokens, 0),
      output_tokens: agents.reduce((n, a) => n + a.output_tokens, 0),
    },
    agents: agents.map(({ reply_value: _r, model_steps: _m, input_tokens: _i, output_tokens: _o, ...summary }) => summary),
  };
}
