import { redact, sqlPart, type Sql, type SqlPart, type Tx } from "@handoff/db";
import type { ModelMessage } from "ai";

export interface StoredMessage {
  turnId: string | null;
  stepId: string | null;
  /** As stored (redacted): what the next request sends. */
  message: ModelMessage;
}

export interface MessageScope {
  sessionId: string;
  agentId: string;
  turnId: string | null;
  stepId?: string | null;
}

/** The agent's whole conversation, in order: what the next request is built from. */
export async function loadHistory(sql: Sql | Tx, agentId: string): Promise<StoredMessage[]> {
  const rows = await sql<{ turnId: string | null; stepId: string | null; content: ModelMessage }[]>`
    SELECT turn_id AS "turnId", step_id AS "stepId", content FROM agent_messages
    WHERE agent_id = ${agentId} ORDER BY id`;
  return rows.map((r) => ({ turnId: r.turnId, stepId: r.stepId, message: r.content }));
}

/** Messages as they are stored: redacted JSON, and the message that JSON reads back as. */
export function toStored(at: MessageScope, messages: ModelMessage[]): { json: string[]; stored: StoredMessage[] } {
  const json: string[] = [];
  const stored: StoredMessage[] = [];
  for (const message of messages) {
    const raw = JSON.stringify(message);
    const redacted = redact(raw);
    json.push(redacted);
    // Only a message that held a secret differs from what the database would give back.
    stored.push({ turnId: at.turnId, stepId: at.stepId ?? null, message: redacted === raw ? message : (JSON.parse(redacted) as ModelMessage) });
  }
  return { json, stored };
}

/** Inserts messages inside a transaction; returns them as stored, for the in-memory history. */
export async function appendMessages(tx: Tx, at: MessageScope, messages: ModelMessage[]): Promise<StoredMessage[]> {
  const { json, stored } = toStored(at, messages);
  for (let i = 0; i < json.length; i++) {
    await tx`
      INSERT INTO agent_messages (session_id, agent_id, turn_id, step_id, role, content)
      VALUES (${at.sessionId}, ${at.agentId}, ${at.turnId}, ${at.stepId ?? null}, ${messages[i]!.role}, ${json[i]!}::text::jsonb)`;
  }
  return stored;
}

/**
 * The same insert as a fenced write (see fencedWrite), in order. Returns the write and the
 * messages as stored; the caller adds those to its history once the write commits.
 */
export function insertMessages(at: MessageScope, messages: ModelMessage[]): { write: SqlPart; stored: StoredMessage[] } {
  const { json, stored } = toStored(at, messages);
  const write = sqlPart`
    INSERT INTO agent_messages (session_id, agent_id, turn_id, step_id, role, content)
    SELECT ${at.sessionId}::text, ${at.agentId}::text, ${at.turnId}::text, ${at.stepId ?? null}::text, u.role, u.content::jsonb
    FROM fence, unnest(${messages.map((m) => m.role)}::text[], ${json}::text[]) WITH ORDINALITY AS u(role, content, ord)
    ORDER BY u.ord`;
  return { write, stored };
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
