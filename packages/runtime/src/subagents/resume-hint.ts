import type { Sql, Tx } from "@handoff/db";

export interface OpenTodo {
  id: string;
  content: string;
  status: "pending" | "in_progress";
}

/** C4's resume hint: what was left open and why the agent stopped, so a resume starts from the ledger. */
export interface ResumeHint {
  agentId: string;
  stopReason: string | null;
  failureTag: string | null;
  openTodos: OpenTodo[];
}

export async function loadResumeHint(sql: Sql | Tx, agentId: string): Promise<ResumeHint> {
  const [agent] = await sql<{ stopReason: string | null; failureTag: string | null }[]>`
    SELECT stop_reason AS "stopReason", failure_tag AS "failureTag" FROM agents WHERE id = ${agentId}`;
  return {
    agentId,
    stopReason: agent?.stopReason ?? null,
    failureTag: agent?.failureTag ?? null,
    openTodos: await openTodos(sql, agentId),
  };
}

export async function openTodos(sql: Sql | Tx, agentId: string): Promise<OpenTodo[]> {
  return sql<OpenTodo[]>`
    SELECT id, content, status FROM todos
    WHERE agent_id = ${agentId} AND status IN ('pending', 'in_progress') ORDER BY position`;
}

/** The hint as a parent (or a person) reads it. */
export function renderResumeHint(hint: ResumeHint): string {
  const lines = [`To continue this agent, call task with resume: "${hint.agentId}".`];
  lines.push(`It stopped with: ${hint.stopReason ?? "unknown"}${hint.failureTag ? ` (failure tag ${hint.failureTag})` : ""}.`);
  if (hint.openTodos.length > 0) {
    lines.push("Open todo items:");
    for (const t of hint.openTodos) lines.push(`- [${t.status}] ${t.content} (id ${t.id})`);
  } else {
    lines.push("It has no open todo items.");
  }
  return lines.join("\n");
}

/** The `resume` message the agent itself receives: its open items and how it stopped. */
export function renderResumeMessage(hint: ResumeHint): string {
  const lines = [
    `[Resume] You stopped earlier with: ${hint.stopReason ?? "unknown"}${hint.failureTag ? ` (${hint.failureTag})` : ""}.`,
    "Continue your work from your todo ledger, with a fresh step budget.",
  ];
  if (hint.openTodos.length > 0) {
    lines.push("Your open todo items:");
    for (const t of hint.openTodos) lines.push(`- [${t.status}] ${t.content} (id ${t.id})`);
  } else {
    lines.push("Your ledger has no open items; check your work and finish.");
  }
  lines.push("When you are done, return your result with the reply tool.");
  return lines.join("\n");
}
