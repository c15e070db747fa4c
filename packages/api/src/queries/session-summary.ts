import { HandoffError, type Sql } from "@handoff/db";

export interface SessionSummary {
  id: string;
  mode: "interactive" | "headless";
  title: string | null;
  status: "idle" | "running" | "ended" | "cancelled";
  profile: string;
  rootAgentId: string;
  lastSeq: number;
  createdAt: string;
  updatedAt: string;
  endedAt: string | null;
  lease: { owner: string | null; epoch: number; expiresAt: string | null };
  root: {
    status: string;
    model: string | null;
    stopReason: string | null;
    failureTag: string | null;
    verdict: string | null;
    replyValue: unknown;
  };
  usage: { inputTokens: number; outputTokens: number; modelSteps: number };
  agents: number;
  queued: number;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** A session as the API reports it: its row, its root's outcome, and totals over its agents. */
export async function sessionSummaries(sql: Sql, where: { ids: string[] }): Promise<SessionSummary[]> {
  if (where.ids.length === 0) return [];
  const rows = await sql`
    SELECT s.id, s.mode, s.title, s.status, s.profile, s.root_agent_id, s.last_seq, s.created_at, s.updated_at, s.ended_at,
           s.lease_owner, s.lease_epoch, s.lease_expires_at,
           r.status AS root_status, r.model AS root_model, r.stop_reason, r.failure_tag, r.verdict, r.reply_value,
           u.input_tokens, u.output_tokens, u.model_steps, u.agents,
           (SELECT count(*)::int FROM inbox_messages m WHERE m.session_id = s.id AND m.state = 'queued') AS queued
    FROM sessions s
    JOIN agents r ON r.id = s.root_agent_id
    CROSS JOIN LATERAL (
      SELECT sum(input_tokens)::bigint AS input_tokens, sum(output_tokens)::bigint AS output_tokens,
             sum(model_steps)::int AS model_steps, count(*)::int AS agents
      FROM agents a WHERE a.session_id = s.id) u
    WHERE s.id = ANY(${where.ids}::text[])`;
  const byId = new Map(
    rows.map((r) => [
      r.id as string,
      {
        id: r.id,
        mode: r.mode,
        title: r.title,
        status: r.status,
        profile: r.profile,
        rootAgentId: r.root_agent_id,
        lastSeq: r.last_seq,
        createdAt: iso(r.created_at)!,
        updatedAt: iso(r.updated_at)!,
        endedAt: iso(r.ended_at),
        lease: { owner: r.lease_owner, epoch: r.lease_epoch, expiresAt: iso(r.lease_expires_at) },
        root: {
          status: r.root_status,
          model: r.root_model,
          stopReason: r.stop_reason,
          failureTag: r.failure_tag,
          verdict: r.verdict,
          replyValue: r.reply_value,
        },
        usage: { inputTokens: Number(r.input_tokens), outputTokens: Number(r.output_tokens), modelSteps: r.model_steps },
        agents: r.agents,
        queued: r.queued,
      } satisfies SessionSummary,
    ]),
  );
  return where.ids.flatMap((id) => byId.get(id) ?? []);
}

export async function sessionSummary(sql: Sql, sessionId: string): Promise<SessionSummary> {
  const [summary] = await sessionSummaries(sql, { ids: [sessionId] });
  if (!summary) throw new HandoffError("NOT_FOUND", `session ${sessionId} does not exist`, { sessionId });
  return summary;
}
