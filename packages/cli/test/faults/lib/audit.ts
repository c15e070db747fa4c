import type { Db, StoredEvent } from "@handoff/db";

/** One session run under a fault, and the stop reason its scenario implies for each agent. */
export interface ExpectedRun {
  sessionId: string;
  /** The stop reason every agent must end with, by profile name; `*` for any profile not named. */
  stops: Record<string, string>;
}

export interface FaultAudit {
  runs: number;
  /** Inbox messages of those runs. */
  messages: number;
  /** Messages never admitted (still queued, or cancelled). */
  lost: number;
  /** Admissions beyond the first, tool calls run again after their result was recorded, agents or turns ended twice. */
  duplicates: number;
  /** Agents that ended with another stop reason than the scenario implies, or did not end. */
  wrongStopReasons: number;
  /**
   * Tool calls started again because the worker running them died before their result was
   * recorded: allowed (only a recorded result is a promise not to run again), and counted so
   * a test can say how many it expected.
   */
  rerunsBeforeRecord: number;
  /** Every broken rule, as a sentence naming the session; empty when all hold. */
  violations: string[];
  events: Map<string, StoredEvent[]>;
}

/**
 * The invariants every fault test checks afterwards, from the database alone:
 * - each session's event `seq` runs 1..n with no gap, and `last_seq` is n;
 * - every inbox message was admitted exactly once (one `message.admit` naming it, by the turn
 *   its row names);
 * - every tool call has exactly one recorded result (`tool-call.end`), and no `tool-call.start`
 *   for it follows that result: a call with a recorded result was not executed again;
 * - every agent ended once per turn (one `turn.end` per turn, as many `agent.end` as ended
 *   turns), with the stop reason the scenario implies; no turn is left running and no model
 *   step is left `running` or `ended` (unsettled);
 * - the stream tells the truth: a step's `text.delta` events after its last retry spell the
 *   text it ended with;
 * - the session is at rest: headless ones `ended`, interactive ones `idle`.
 */
export async function auditRuns(db: Db, runs: readonly ExpectedRun[]): Promise<FaultAudit> {
  const ids = runs.map((r) => r.sessionId);
  const audit: FaultAudit = {
    runs: runs.length,
    messages: 0,
    lost: 0,
    duplicates: 0,
    wrongStopReasons: 0,
    rerunsBeforeRecord: 0,
    violations: [],
    events: new Map(ids.map((id) => [id, []])),
  };
  const bad = (sessionId: string, what: string) => audit.violations.push(`${sessionId}: ${what}`);

  const events = await db.sql<StoredEvent[]>`
    SELECT session_id AS "sessionId", seq, type, agent_id AS "agentId", turn_id AS "turnId", data, created_at AS "createdAt"
    FROM events WHERE session_id = ANY(${ids}::text[]) ORDER BY session_id, seq`;
  for (const e of events) audit.events.get(e.sessionId)!.push(e);
  const sessions = await db.sql<{ id: string; mode: string; status: string; lastSeq: number }[]>`
    SELECT id, mode, status, last_seq AS "lastSeq" FROM sessions WHERE id = ANY(${ids}::text[])`;
  const inbox = await db.sql<{ id: string; sessionId: string; state: string; turnId: string | null }[]>`
    SELECT id, session_id AS "sessionId", state, admitted_turn_id AS "turnId"
    FROM inbox_messages WHERE session_id = ANY(${ids}::text[])`;
  const toolCalls = await db.sql<{ sessionId: string; stepId: string; callId: string; name: string; status: string }[]>`
    SELECT session_id AS "sessionId", step_id AS "stepId", call_id AS "callId", name, status
    FROM tool_calls WHERE session_id = ANY(${ids}::text[])`;
  const agents = await db.sql<{ id: string; sessionId: string; profile: string; stopReason: string | null; ended: boolean }[]>`
    SELECT id, session_id AS "sessionId", profile, stop_reason AS "stopReason", ended_at IS NOT NULL AS ended
    FROM agents WHERE session_id = ANY(${ids}::text[])`;
  const turns = await db.sql<{ id: string; sessionId: string; agentId: string; status: string }[]>`
    SELECT id, session_id AS "sessionId", agent_id AS "agentId", status FROM turns WHERE session_id = ANY(${ids}::text[])`;
  const steps = await db.sql<{ id: string; sessionId: string; status: string }[]>`
    SELECT id, session_id AS "sessionId", status FROM model_steps WHERE session_id = ANY(${ids}::text[])`;

  for (const s of sessions) {
    const log = audit.events.get(s.id)!;
    const gap = log.findIndex((e, i) => e.seq !== i + 1);
    if (gap >= 0) bad(s.id, `event #${gap + 1} has seq ${log[gap]!.seq}`);
    if (s.lastSeq !== log.length) bad(s.id, `last_seq is ${s.lastSeq} but the log holds ${log.length} events`);
    const rest = s.mode === "headless" ? "ended" : "idle";
    if (s.status !== rest) bad(s.id, `a ${s.mode} session ended ${s.status}, not ${rest}`);
  }
  if (sessions.length !== runs.length) audit.violations.push(`${runs.length - sessions.length} session(s) not found`);

  // Messages: admitted exactly once, by the turn the row names.
  const admissions = new Map<string, string[]>();
  for (const e of events) {
    if (e.type !== "message.admit") continue;
    for (const m of e.data.messages as { messageId: string }[]) admissions.set(m.messageId, [...(admissions.get(m.messageId) ?? []), e.turnId ?? "?"]);
  }
  audit.messages = inbox.length;
  for (const m of inbox) {
    const by = admissions.get(m.id) ?? [];
    if (m.state !== "admitted" || by.length === 0) {
      audit.lost++;
      bad(m.sessionId, `message ${m.id} is ${m.state}, admitted ${by.length} time(s)`);
    } else if (by.length > 1) {
      audit.duplicates += by.length - 1;
      bad(m.sessionId, `message ${m.id} admitted ${by.length} times (turns ${by.join(", ")})`);
    } else if (by[0] !== m.turnId) {
      bad(m.sessionId, `message ${m.id} names turn ${m.turnId} but was admitted by ${by[0]}`);
    }
  }

  // Tool calls: one recorded result each, and nothing started after it.
  const callKey = (stepId: unknown, callId: unknown) => `${String(stepId)}:${String(callId)}`;
  const starts = new Map<string, number[]>();
  const ends = new Map<string, number[]>();
  for (const e of events) {
    if (e.type !== "tool-call.start" && e.type !== "tool-call.end") continue;
    const map = e.type === "tool-call.start" ? starts : ends;
    const key = callKey(e.data.stepId, e.data.callId);
    map.set(key, [...(map.get(key) ?? []), e.seq]);
  }
  for (const c of toolCalls) {
    const key = callKey(c.stepId, c.callId);
    const ended = ends.get(key) ?? [];
    const started = starts.get(key) ?? [];
    if (c.status !== "done" || ended.length === 0) {
      bad(c.sessionId, `tool call ${c.name} ${key} has no recorded result (${c.status})`);
      continue;
    }
    if (ended.length > 1) {
      audit.duplicates += ended.length - 1;
      bad(c.sessionId, `tool call ${c.name} ${key} recorded ${ended.length} results`);
    }
    const after = started.filter((seq) => seq > ended[0]!).length;
    if (after > 0) {
      audit.duplicates += after;
      bad(c.sessionId, `tool call ${c.name} ${key} was started ${after} more time(s) after its result was recorded`);
    }
    audit.rerunsBeforeRecord += Math.max(0, started.length - after - 1);
  }

  // Agents and turns: each ends once, truthfully.
  const expected = new Map(runs.map((r) => [r.sessionId, r.stops]));
  const count = (type: string, key: (e: StoredEvent) => string | null) => {
    const n = new Map<string, number>();
    for (const e of events) if (e.type === type) n.set(key(e) ?? "?", (n.get(key(e) ?? "?") ?? 0) + 1);
    return n;
  };
  const agentEnds = count("agent.end", (e) => e.agentId);
  const turnEnds = count("turn.end", (e) => e.turnId);
  for (const a of agents) {
    const stops = expected.get(a.sessionId)!;
    const want = stops[a.profile] ?? stops["*"];
    if (!a.ended || a.stopReason !== want) {
      audit.wrongStopReasons++;
      bad(a.sessionId, `agent ${a.id} (${a.profile}) ${a.ended ? `stopped with ${a.stopReason}` : "never ended"}; the scenario implies ${want}`);
    }
    const ended = turns.filter((t) => t.agentId === a.id && t.status === "ended").length;
    const ends = agentEnds.get(a.id) ?? 0;
    if (ends > ended) audit.duplicates += ends - ended;
    if (ends !== ended) bad(a.sessionId, `agent ${a.id} has ${ends} agent.end event(s) for ${ended} ended turn(s)`);
  }
  for (const t of turns) {
    const n = turnEnds.get(t.id) ?? 0;
    if (t.status !== "ended") bad(t.sessionId, `turn ${t.id} is still ${t.status}`);
    if (n > 1) audit.duplicates += n - 1;
    if (n !== (t.status === "ended" ? 1 : 0)) bad(t.sessionId, `turn ${t.id} has ${n} turn.end event(s)`);
  }
  for (const s of steps) {
    if (s.status === "running" || s.status === "ended") bad(s.sessionId, `model step ${s.id} was left ${s.status}`);
  }

  // What a streaming client shows: the text deltas after a step's last retry spell its text.
  const streamed = new Map<string, string>();
  for (const e of events) {
    const stepId = String(e.data.stepId);
    if (e.type === "model-step.retry") streamed.set(stepId, "");
    if (e.type === "text.delta") streamed.set(stepId, (streamed.get(stepId) ?? "") + String(e.data.text));
    if (e.type === "model-step.end" && typeof e.data.text === "string" && (streamed.get(stepId) ?? "") !== e.data.text) {
      bad(e.sessionId, `step ${stepId} streamed ${JSON.stringify(streamed.get(stepId) ?? "")} but ended with ${JSON.stringify(e.data.text)}`);
    }
  }
  return audit;
}

/** How many times each tool call (by name) was started, in one session's log: side effects begun. */
export function toolStarts(audit: FaultAudit, sessionId: string, name: string): number {
  return audit.events.get(sessionId)!.filter((e) => e.type === "tool-call.start" && e.data.name === name).length;
}
