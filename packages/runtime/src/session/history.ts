import { redact, type Sql, type Tx } from "@handoff/db";
import type { ModelMessage } from "ai";

export interface StoredMessage {
  id: number;
  turnId: string | null;
  stepId: string | null;
  message: ModelMessage;
}

/** The agent's whole conversation, in order: what the next request is built from. */
export async function loadHistory(sql: Sql | Tx, agentId: string): Promise<StoredMessage[]> {
  const rows = await sql<{ id: number; turnId: string | null; stepId: string | null; content: ModelMessage }[]>`
    SELECT id, turn_id AS "turnId", step_id AS "stepId", content FROM agent_messages
    WHERE agent_id = ${agentId} ORDER BY id`;
  return rows.map((r) => ({ id: r.id, turnId: r.turnId, stepId: r.stepId, message: r.content }));
}

export async function appendMessages(
  tx: Tx,
  at: { sessionId: string; agentId: string; turnId: string | null; stepId?: string | null },
  messages: ModelMessage[],
): Promise<void> {
  for (const message of messages) {
    await tx`
      INSERT INTO agent_messages (session_id, agent_id, turn_id, step_id, role, content)
      VALUES (${at.sessionId}, ${at.agentId}, ${at.turnId}, ${at.stepId ?? null}, ${message.role},
              ${redact(JSON.stringify(message))}::text::jsonb)`;
  }
}

/** The text of an assistant message, joined from its text parts. */
export function assistantText(message: ModelMessage): string {
  if (message.role !== "assistant") return "";
  if (typeof message.content === "string") return message.content;
  return message.content.map((p) => (p.type === "text" ? p.text : "")).join("");
}

/** The agent's last non-blank assistant text in a turn: C3's "last written text". */
export function lastWrittenText(history: StoredMessage[], turnId: string): string | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if (m.turnId !== turnId) continue;
    const text = assistantText(m.message);
    if (text.trim()) return text;
  }
  return null;
}
