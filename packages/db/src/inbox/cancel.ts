import type { Db } from "../client";
import { HandoffError } from "../errors";
import { appendEvents } from "../events/append-events";

export interface CancelResult {
  messageId: string;
  /** False when the message had already been cancelled (cancelling is idempotent). */
  changed: boolean;
}

/**
 * Cancels a queued message. An admitted message belongs to a turn and cannot be taken
 * back: that is a CONFLICT naming the turn. Cancelling twice is not an error.
 */
export async function cancelMessage(db: Db, input: { sessionId: string; messageId: string }): Promise<CancelResult> {
  return db.sql.begin(async (tx) => {
    const [row] = await tx<{ state: string; admittedTurnId: string | null }[]>`
      SELECT state, admitted_turn_id AS "admittedTurnId" FROM inbox_messages
      WHERE id = ${input.messageId} AND session_id = ${input.sessionId}
      FOR UPDATE`;
    if (!row) {
      throw new HandoffError("NOT_FOUND", `message ${input.messageId} is not in session ${input.sessionId}`, input);
    }
    if (row.state === "cancelled") return { messageId: input.messageId, changed: false };
    if (row.state === "admitted") {
      throw new HandoffError(
        "CONFLICT",
        `message ${input.messageId} was already admitted by turn ${row.admittedTurnId}; cancel the session's running turn instead`,
        { ...input, turnId: row.admittedTurnId },
      );
    }
    await tx`UPDATE inbox_messages SET state = 'cancelled', cancelled_at = now() WHERE id = ${input.messageId}`;
    await appendEvents(tx, input.sessionId, [{ type: "message.cancel", data: { messageId: input.messageId } }]);
    return { messageId: input.messageId, changed: true };
  });
}
