import { z } from "zod";
import type { Db } from "../client";
import { HandoffError } from "../errors";
import { appendEvents } from "../events/append-events";
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
}

/**
 * Puts a message in a session's inbox. It resolves only after the commit, so a returned
 * messageId is durable. The NOTIFY that wakes workers is part of the same transaction.
 */
export async function enqueue(db: Db, input: EnqueueInput, options: EnqueueOptions): Promise<EnqueueResult> {
  const msg = parseInput(EnqueueInput, input);
  // Stored (and shown) with secrets and token-shaped strings redacted.
  const json = redact(JSON.stringify(msg.payload));
  const bytes = assertPayloadFits(msg.payload, options.maxPayloadBytes);
  const messageId = newId("msg");
  try {
    return await db.sql.begin(async (tx) => {
      if (msg.targetAgentId) {
        const [agent] = await tx`
          SELECT 1 FROM agents WHERE id = ${msg.targetAgentId} AND session_id = ${msg.sessionId}`;
        if (!agent) {
          throw new HandoffError("NOT_FOUND", `agent ${msg.targetAgentId} is not in session ${msg.sessionId}`, {
            sessionId: msg.sessionId,
            agentId: msg.targetAgentId,
          });
        }
      }
      // ON CONFLICT waits for a concurrent insert of the same key to commit, then yields no row.
      const inserted = await tx`
        INSERT INTO inbox_messages (id, session_id, target_agent_id, kind, payload, idempotency_key)
        VALUES (${messageId}, ${msg.sessionId}, ${msg.targetAgentId ?? null}, ${msg.kind},
                ${json}::text::jsonb, ${msg.idempotencyKey ?? null})
        ON CONFLICT (session_id, idempotency_key) DO NOTHING
        RETURNING id`;
      if (inserted.length === 0) {
        const [first] = await tx<{ id: string }[]>`
          SELECT id FROM inbox_messages
          WHERE session_id = ${msg.sessionId} AND idempotency_key = ${msg.idempotencyKey ?? null}`;
        if (!first) throw new Error("idempotency conflict without a stored message");
        return { messageId: first.id, duplicate: true };
      }
      await appendEvents(tx, msg.sessionId, [
        {
          type: "message.queue",
          agentId: msg.targetAgentId ?? null,
          data: { messageId, kind: msg.kind, targetAgentId: msg.targetAgentId ?? null, bytes },
        },
      ]);
      await tx`SELECT pg_notify(${INBOX_CHANNEL}, ${msg.sessionId})`;
      return { messageId, duplicate: false };
    });
  } catch (e) {
    if (isForeignKeyViolation(e)) {
      throw new HandoffError("NOT_FOUND", `session ${msg.sessionId} does not exist`, { sessionId: msg.sessionId });
    }
    throw e;
  }
}

function isForeignKeyViolation(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { code?: string }).code === "23503";
}

/** Refuses a payload over the limit (bytes of its JSON) with PAYLOAD_TOO_LARGE; returns its size. */
export function assertPayloadFits(payload: unknown, maxPayloadBytes: number): number {
  const bytes = Buffer.byteLength(JSON.stringify(payload), "utf8");
  if (bytes > maxPayloadBytes) {
    throw new HandoffError("PAYLOAD_TOO_LARGE", `payload is ${bytes} bytes; the limit is ${maxPayloadBytes} (HANDOFF_MAX_PAYLOAD_BYTES)`, {
      bytes,
      limit: maxPayloadBytes,
    });
  }
  return bytes;
}
