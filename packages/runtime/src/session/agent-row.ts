import { AgentConfig, type Sql, type Tx } from "@handoff/db";

export interface AgentRow {
  id: string;
  sessionId: string;
  parentId: string | null;
  profile: string;
  model: string | null;
  config: AgentConfig;
  returning: boolean;
  depth: number;
  status: string;
  ledgerKept: boolean;
  mode: "interactive" | "headless";
  sessionTitle: string | null;
}

/** An agent as a turn begins: its row, the turn a dead worker left running, and whether work is queued. */
export interface AgentAtTurnStart {
  agent: AgentRow;
  running: { turnId: string; modelSteps: number; nudges: number } | null;
  /** Messages wait in the inbox for it (the same filter admission uses). */
  queued: boolean;
}

/** One read: what starting (or declining) a turn needs. */
export async function loadAgentAtTurnStart(sql: Sql | Tx, agentId: string): Promise<AgentAtTurnStart> {
  const [row] = await sql<
    (AgentRow & { runningTurnId: string | null; runningModelSteps: number | null; runningNudges: number | null; queued: boolean })[]
  >`
    SELECT a.id, a.session_id AS "sessionId", a.parent_id AS "parentId", a.profile, a.model, a.config,
           a."returning", a.depth, a.status, a.ledger_kept AS "ledgerKept", s.mode, s.title AS "sessionTitle",
           t.id AS "runningTurnId", t.model_steps AS "runningModelSteps", t.nudges AS "runningNudges",
           EXISTS (SELECT 1 FROM inbox_messages m
                   WHERE m.session_id = a.session_id AND m.state = 'queued'
                     AND (m.target_agent_id = a.id OR (m.target_agent_id IS NULL AND a.parent_id IS NULL))) AS queued
    FROM agents a JOIN sessions s ON s.id = a.session_id
    LEFT JOIN LATERAL (
      SELECT id, model_steps, nudges FROM turns WHERE agent_id = a.id AND status = 'running' ORDER BY started_at DESC LIMIT 1
    ) t ON true
    WHERE a.id = ${agentId}`;
  if (!row) throw new Error(`agent ${agentId} does not exist`);
  const { runningTurnId, runningModelSteps, runningNudges, queued, ...agent } = row;
  return {
    agent: { ...agent, config: AgentConfig.parse(agent.config ?? {}) },
    running: runningTurnId ? { turnId: runningTurnId, modelSteps: runningModelSteps ?? 0, nudges: runningNudges ?? 0 } : null,
    queued,
  };
}
