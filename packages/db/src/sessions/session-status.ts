import type { Tx } from "../client";
import type { NewEvent } from "../events/event";

export type SessionStatus = "idle" | "running" | "ended" | "cancelled";

/**
 * Moves the whole-session status and says so in the log (`session.status`), once per real
 * transition. An ended or cancelled session is not revived by late work.
 */
export async function setSessionStatus(tx: Tx, sessionId: string, status: SessionStatus): Promise<NewEvent[]> {
  const changed = await tx`
    UPDATE sessions SET status = ${status}::session_status,
      ended_at = CASE WHEN ${status} IN ('ended', 'cancelled') THEN now() ELSE ended_at END
    WHERE id = ${sessionId} AND status <> ${status}::session_status
      AND (status NOT IN ('ended', 'cancelled') OR ${status} IN ('ended', 'cancelled'))
    RETURNING id`;
  return changed.length > 0 ? [{ type: "session.status", data: { status } }] : [];
}
