import { z } from "zod";
import type { Db } from "../client";
import { HandoffError } from "../errors";
import { appendedCte, bumpedCte, notifyAppended } from "../events/append-events";
import { queryParts, sqlPart } from "../lease/sql-part";
import { newId } from "../ids";
import { redact } from "../redact";
import { parseInput } from "../validate";
import { INBOX_CHANNEL, InboxKind } from "./message";

export const EnqueueInput = z.object({
  sessionId: z.string().min(1).max(100),
  kind: InboxKind,
  payload: z.unknown().refine((v) => v !== undefined, "payload is required"),
  /** `null` or absent: the session's root agent. */
  targetAgentId: z.string().min(1).max(100).nullish(),
  /** A retried enqueue with the same key returns the first message's id and inserts nothing. */
  idempotencyKey: z.string().min(1).max(200).nullish(),
});
export type EnqueueInput = z.input<typeof EnqueueInput>;

export interface EnqueueResult {
  messageId: string;
  /** True when the idempotency key had been used: nothing was inserted. */
  duplicate: boolean;
}

export interface EnqueueOptions {
  /** Largest payload accepted, in bytes of its JSON. */
  maxPayloadBytes: number;
  /** Only a session of this workspace takes the message: another's is NOT_FOUND, exactly like one that does not exist. */
  workspaceId?: string;
}

/** Why a message was not inserted, as the statement found it. */
type Verdict = "ok" | "duplicate" | "no_session" | "no_agent" | "ended" | "cancelled" | "seeded";

/**
 * Puts a message in a session's inbox. It resolves only after the commit, so a returned
 * messageId is durable. The NOTIFY that wakes workers is part of the same transaction.
 *
 * A prompt or follow-up must find the session taking one: a headless session is seeded once
 * and a finished one takes nothing more. A retry of the same idempotency key returns the
 * first message's id and inserts nothing, whatever the session's state now.
 *
 * The checks, the insert, its `message.queue` event and both NOTIFYs are one statement — one
 * round trip and one commit, the floor for a durable write — and the checks gate the writes
 * inside it, so nothing is written when one refuses.
 */
export async function enqueue(db: Db, input: EnqueueInput, options: EnqueueOptions): Promise<EnqueueResult> {
  const msg = parseInput(EnqueueInput, input);
  const raw = JSON.stringify(msg.payload);
  const bytes = assertJsonFits(raw, options.maxPayloadBytes);
  // Stored (and shown) with secrets and token-shaped strings redacted.
  const json = redact(raw);
  const messageId = newId("msg");
  const agentId = msg.targetAgentId ?? null;
  const key = msg.idempotencyKey ?? null;
  const event = { type: "message.queue", agentId, data: { messageId, kind: msg.kind, targetAgentId: agentId, bytes } };
  const workspaceId = options.workspaceId ?? null;
  let row: { verdict: Verdict; priorId: string | null; insertedId: string | null } | undefined;
  try {
    [row] = await queryParts<{ verdict: Verdict; priorId: string | null; insertedId: string | null }>(db.sql, [
      sqlPart`WITH target AS (
        SELECT mode, status FROM sessions
        WHERE id = ${msg.sessionId}::text AND (${workspaceId}::text IS NULL OR workspace_id = ${workspaceId}::text)
      ), prior AS (
        SELECT id FROM inbox_messages WHERE session_id = ${msg.sessionId}::text AND idempotency_key = ${key}::text
      ), checked AS (
        SELECT CASE
          WHEN t.mode IS NULL THEN 'no_session'
          WHEN EXISTS (SELECT 1 FROM prior) THEN 'duplicate'
          WHEN ${agentId}::text IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM agents WHERE id = ${agentId}::text AND session_id = ${msg.sessionId}::text) THEN 'no_agent'
          WHEN NOT ${isPrompt(msg.kind)}::boolean OR t.mode <> 'headless' THEN 'ok'
          WHEN t.status IN ('ended', 'cancelled') THEN t.status::text
          WHEN EXISTS (SELECT 1 FROM inbox_messages m WHERE m.session_id = ${msg.sessionId}::text AND m.kind IN ('prompt', 'followup'))
            THEN 'seeded'
          ELSE 'ok' END AS verdict
        FROM (SELECT 1) AS one LEFT JOIN target t ON true
      ), inserted AS (
        INSERT INTO inbox_messages (id, session_id, target_agent_id, kind, payload, idempotency_key)
        SELECT ${messageId}::text, ${msg.sessionId}::text, ${agentId}::text, ${msg.kind}::inbox_kind, ${json}::text::jsonb, ${key}::text
        FROM checked WHERE verdict = 'ok'
        -- ON CONFLICT waits for a concurrent insert of the same key to commit, then yields no row.
        ON CONFLICT (session_id, idempotency_key) DO NOTHING
        RETURNING id
      ), `,
      ...bumpedCte(msg.sessionId, 1, { onlyIf: "EXISTS (SELECT 1 FROM inserted)" }),
      ", ",
      ...appendedCte(msg.sessionId, [event], "bumped"),
      sqlPart`
      SELECT verdict, (SELECT id FROM prior) AS "priorId", (SELECT id FROM inserted) AS "insertedId",
        (SELECT pg_notify(${INBOX_CHANNEL}::text, ${msg.sessionId}::text) FROM inserted) AS "wokeWorkers",
        (SELECT `,
      notifyAppended(msg.sessionId),
      ` FROM bumped) AS "wokeStreams"
      FROM checked`,
    ]);
  } catch (e) {
    // The session was deleted between the check and the insert.
    if (isForeignKeyViolation(e)) throw noSession(msg.sessionId);
    throw e;
  }
  switch (row!.verdict) {
    case "ok":
      if (row!.insertedId) return { messageId, duplicate: false };
      // A concurrent insert of the same key committed after this statement's snapshot.
      return { messageId: await firstWithKey(db, msg.sessionId, key), duplicate: true };
    case "duplicate":
      return { messageId: row!.priorId!, duplicate: true };
    case "no_session":
      throw noSession(msg.sessionId);
    case "no_agent":
      throw new HandoffError("NOT_FOUND", `agent ${agentId} is not in session ${msg.sessionId}`, { sessionId: msg.sessionId, agentId });
    case "ended":
    case "cancelled":
      throw new HandoffError("CONFLICT", `session ${msg.sessionId} has ${row!.verdict}; start a new session`);
    case "seeded":
      throw new HandoffError("CONFLICT", `headless session ${msg.sessionId} already has its prompt; steer it instead`);
  }
}

function isPrompt(kind: InboxKind): boolean {
  return kind === "prompt" || kind === "followup";
}

function noSession(sessionId: string): HandoffError {
  return new HandoffError("NOT_FOUND", `session ${sessionId} does not exist`, { sessionId });
}

async function firstWithKey(db: Db, sessionId: string, key: string | null): Promise<string> {
  const [first] = await db.sql<{ id: string }[]>`
    SELECT id FROM inbox_messages WHERE session_id = ${sessionId} AND idempotency_key = ${key}::text`;
  if (!first) throw new Error("idempotency conflict without a stored message");
  return first.id;
}

function isForeignKeyViolation(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { code?: string }).code === "23503";
}

/** Refuses a payload over the limit (bytes of its JSON) with PAYLOAD_TOO_LARGE; returns its size. */
export function assertPayloadFits(payload: unknown, maxPayloadBytes: number): number {
  return assertJsonFits(JSON.stringify(payload), maxPayloadBytes);
}

function assertJsonFits(json: string, maxPayloadBytes: number): number {
  const bytes = Buffer.byteLength(json, "utf8");
  if (bytes > maxPayloadBytes) {
    throw new HandoffError("PAYLOAD_TOO_LARGE", `payload is ${bytes} bytes; the limit is ${maxPayloadBytes} (HANDOFF_MAX_PAYLOAD_BYTES)`, {
      bytes,
      limit: maxPayloadBytes,
    });
  }
  return bytes;
}
