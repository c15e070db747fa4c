import type { Db, StoredEvent } from "@handoff/db";
import { STEP_END } from "../fixtures/test-driver";

export interface Audit {
  /** Every rule broken, as a sentence naming the session and event; empty when all hold. */
  violations: string[];
  messages: number;
  /** Messages admitted, by the id of the worker holding the lease at the admission. */
  admittedBy: Map<string, number>;
  /** Steps recorded, by worker. */
  stepsBy: Map<string, number>;
  claims: number;
  takeovers: { sessionId: string; from: string; to: string; at: Date }[];
  events: Map<string, StoredEvent[]>;
}

/**
 * Replays each session's event log and checks what the pool promises:
 * - seqs are 1..n with no gap;
 * - every write sits inside a lease: a `message.admit` or `turn.end` between a `lease.claim`
 *   and its `lease.release`, and a `test.step.end` carries the worker and epoch of that claim;
 * - every inbox message was admitted exactly once and its step recorded exactly once;
 * - the session ended idle, with no turn left running and nothing queued.
 */
export async function auditSessions(db: Db, sessionIds: readonly string[]): Promise<Audit> {
  const rows = await db.sql<StoredEvent[]>`
    SELECT session_id AS "sessionId", seq, type, agent_id AS "agentId", turn_id AS "turnId", data, created_at AS "createdAt"
    FROM events WHERE session_id = ANY(${sessionIds as string[]}::text[]) ORDER BY session_id, seq`;
  const events = new Map<string, StoredEvent[]>(sessionIds.map((id) => [id, []]));
  for (const e of rows) events.get(e.sessionId)!.push(e);
  const inbox = await db.sql<{ id: string; sessionId: string; state: string }[]>`
    SELECT id, session_id AS "sessionId", state FROM inbox_messages WHERE session_id = ANY(${sessionIds as string[]}::text[])`;
  const states = await db.sql<{ id: string; status: string; running: number }[]>`
    SELECT s.id, s.status, (SELECT count(*)::int FROM turns t WHERE t.session_id = s.id AND t.status = 'running') AS running
    FROM sessions s WHERE s.id = ANY(${sessionIds as string[]}::text[])`;

  const audit: Audit = {
    violations: [],
    messages: inbox.length,
    admittedBy: new Map(),
    stepsBy: new Map(),
    claims: 0,
    takeovers: [],
    events,
  };
  const bad = (sessionId: string, what: string) => audit.violations.push(`${sessionId}: ${what}`);
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  const admitted = new Map<string, number>();
  const stepped = new Map<string, number>();

  for (const [sessionId, log] of events) {
    log.forEach((e, i) => e.seq !== i + 1 && bad(sessionId, `event #${i + 1} has seq ${e.seq}`));
    let holder: { workerId: string; epoch: number } | null = null;
    for (const e of log) {
      const d = e.data as Record<string, unknown>;
      const at = `${e.type} at seq ${e.seq}`;
      switch (e.type) {
        case "lease.claim":
          audit.claims++;
          // Only a takeover may find the lease still held, and only from its recorded owner.
          if (holder && holder.workerId !== d.takeoverFrom) {
            bad(sessionId, `${at} while ${holder.workerId} still held epoch ${holder.epoch}`);
          }
          if (d.takeoverFrom) {
            audit.takeovers.push({ sessionId, from: String(d.takeoverFrom), to: String(d.workerId), at: e.createdAt });
          }
          holder = { workerId: String(d.workerId), epoch: Number(d.epoch) };
          break;
        case "lease.release":
          if (!holder || holder.workerId !== d.workerId || holder.epoch !== d.epoch) bad(sessionId, `${at} by a non-holder`);
          holder = null;
          break;
        case "message.admit":
          if (!holder) bad(sessionId, `${at} outside any lease`);
          for (const m of d.messages as { messageId: string }[]) {
            bump(admitted, m.messageId);
            if (holder) bump(audit.admittedBy, holder.workerId);
          }
          break;
        case "turn.end":
          if (!holder) bad(sessionId, `${at} outside any lease`);
          break;
        case STEP_END:
          bump(stepped, String(d.messageId));
          bump(audit.stepsBy, String(d.workerId));
          if (!holder || holder.workerId !== d.workerId || holder.epoch !== d.epoch) {
            bad(sessionId, `${at} by ${String(d.workerId)}@${String(d.epoch)}, but the lease was ${JSON.stringify(holder)}`);
          }
          break;
      }
    }
  }
  for (const m of inbox) {
    if (m.state !== "admitted") bad(m.sessionId, `message ${m.id} is ${m.state}`);
    if (admitted.get(m.id) !== 1) bad(m.sessionId, `message ${m.id} admitted ${admitted.get(m.id) ?? 0} times`);
    if (stepped.get(m.id) !== 1) bad(m.sessionId, `message ${m.id} stepped ${stepped.get(m.id) ?? 0} times`);
  }
  for (const s of states) {
    if (s.status !== "idle") bad(s.id, `ended ${s.status}`);
    if (s.running > 0) bad(s.id, `has ${s.running} turn(s) still running`);
  }
  return audit;
}
