import { z } from "zod";

export const InboxKind = z.enum(["prompt", "followup", "steer", "context", "child_result", "resume"]);
export type InboxKind = z.infer<typeof InboxKind>;

export const InboxState = z.enum(["queued", "admitted", "cancelled"]);
export type InboxState = z.infer<typeof InboxState>;

export interface InboxMessage {
  id: string;
  sessionId: string;
  arrival: number;
  targetAgentId: string | null;
  kind: InboxKind;
  payload: unknown;
  state: InboxState;
  admittedTurnId: string | null;
  idempotencyKey: string | null;
  queuedAt: Date;
  admittedAt: Date | null;
  cancelledAt: Date | null;
}

/** Channel that carries a session id whenever a message is queued for it (worker wake-ups). */
export const INBOX_CHANNEL = "handoff_inbox";

/** Column list for raw selects of inbox rows, in the shape of `InboxMessage`. */
export const INBOX_COLUMNS = `id, session_id AS "sessionId", arrival, target_agent_id AS "targetAgentId", kind,
  payload, state, admitted_turn_id AS "admittedTurnId", idempotency_key AS "idempotencyKey",
  queued_at AS "queuedAt", admitted_at AS "admittedAt", cancelled_at AS "cancelledAt"`;
