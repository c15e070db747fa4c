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

export async function loadAgent(sql: Sql | Tx, agentId: string): Promise<AgentRow> {
  const [row] = await sql<AgentRow[]>`
    SELECT a.id, a.session_id AS "sessionId", a.parent_id AS "parentId", a.profile, a.model, a.config,
           a."returning", a.depth, a.status, a.ledger_kept AS "ledgerKept", s.mode, s.title AS "sessionTitle"
    FROM agents a JOIN sessions s ON s.id = a.session_id
    WHERE a.id = ${agentId}`;
  if (!row) throw new Error(`agent ${agentId} does not exist`);
  return { ...row, config: AgentConfig.parse(row.config ?? {}) };
}
