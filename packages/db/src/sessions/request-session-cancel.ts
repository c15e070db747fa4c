import type { Db } from "../client";
import { HandoffError } from "../errors";
import { appendEvents } from "../events/append-events";
import type { NewEvent } from "../events/event";
import { setSessionStatus } from "./session-status";

/** Channel that carries a session id when a whole-session cancel is requested (workers abort its turn). */
export const CANCEL_CHANNEL = "handoff_cancel";

export interface SessionCancel {
  /** Messages that were queued and are now cancelled (never admitted). */
  cancelledMessages: string[];
  /** Turns running when the cancel was recorded: the worker driving them aborts them. */
  runningTurns: number;
}

/**
 * A whole-session cancel (C5): every queued message is cancelled here, in one transaction,
 * and the running turn, if any, is marked for abort — the worker holding the session hears
 * of it by NOTIFY, and one that takes the session over later sees `cancel_requested_at`.
 */
export async function requestSessionCancel(db: Db, sessionId: string): Promise<SessionCancel> {
  return db.sql.begin(async (tx) => {
    const [session] = await tx<{ mode: string; status: string }[]>`
      SELECT mode, status FROM sessions WHERE id = ${sessionId} FOR UPDATE`;
    if (!session) throw new HandoffError("NOT_FOUND", `session ${sessionId} does not exist`, { sessionId });
    const cancelled = await tx<{ id: string }[]>`
      UPDATE inbox_messages SET state = 'cancelled', cancelled_at = now()
      WHERE session_id = ${sessionId} AND state = 'queued' RETURNING id`;
    await tx`UPDATE sessions SET cancel_requested_at = now() WHERE id = ${sessionId}`;
    const [{ running }] = (await tx<{ running: number }[]>`
      SELECT count(*)::int AS running FROM turns WHERE session_id = ${sessionId} AND status = 'running'`) as unknown as [
      { running: number },
    ];
    const events: NewEvent[] = cancelled.map((m) => ({ type: "message.cancel", data: { messageId: m.id } }));
    events.push({ type: "session.cancel", data: { cancelledMessages: cancelled.map((m) => m.id), runningTurns: running } });
    if (running === 0 && session.mode === "headless" && session.status !== "ended") {
      events.push(...(await setSessionStatus(tx, sessionId, "cancelled")));
    }
    await appendEvents(tx, sessionId, events);
    await tx`SELECT pg_notify(${CANCEL_CHANNEL}, ${sessionId})`;
    return { cancelledMessages: cancelled.map((m) => m.id), runningTurns: running };
  });
}
