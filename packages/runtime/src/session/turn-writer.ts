import { fencedWrite, sqlPart, type Db, type Lease, type NewEvent, type SqlPart } from "@handoff/db";
import type { AgentRow } from "./agent-row";
import type { StoredMessage } from "./history";

/** What one write records: fenced statements (see fencedWrite), events, and the in-memory effect. */
export interface WritePart {
  writes?: SqlPart[];
  events?: NewEvent[];
  /** Applied to the turn's state once the write has committed (deferred: at once). */
  after?: (state: TurnState) => void;
}

/**
 * A running turn's state, kept in memory while the lease is held: this runner is the only
 * writer of its agent's history and its turn's counters. Loaded from the database when the
 * turn starts (or resumes after a crash), then changed only through its writes.
 */
export interface TurnState {
  /** The agent's whole conversation, as stored. */
  history: StoredMessage[];
  modelSteps: number;
  nudges: number;
  /** Steering, context or a child result waits in the inbox: admit it at the next step boundary. */
  steeringQueued: boolean;
  /** The last step whose response continued the turn, still to be marked settled. */
  unsettledStepId: string | null;
}

/**
 * The turn's writes, one statement each. A part can be deferred to ride with the next write
 * when nothing may happen between them (a step's end and its first tool call's start); every
 * write also asks whether steering is queued for the agent, so a step boundary needs no
 * extra round trip to find out.
 */
export class TurnWriter {
  private pending: WritePart[] = [];

  constructor(
    private readonly db: Db,
    private readonly lease: Lease,
    private readonly agent: AgentRow,
    readonly state: TurnState,
  ) {}

  /**
   * Sent with the next write (or flush); its effect on the state applies at once, so the next
   * request already holds it (a failed write ends the runner, and its state with it). Parts
   * that ride together must not update the same row: PostgreSQL applies only one of two
   * updates of a row in one statement.
   */
  defer(part: WritePart): void {
    part.after?.(this.state);
    this.pending.push({ writes: part.writes, events: part.events });
  }

  /** Sends the deferred parts and this one in one fenced statement, then applies its effect. */
  async write(part: WritePart): Promise<void> {
    const parts = [...this.pending, part];
    this.pending = [];
    const { row } = await fencedWrite<{ queued: boolean }>(this.db.sql, this.lease, {
      writes: parts.flatMap((p) => p.writes ?? []),
      events: parts.flatMap((p) => p.events ?? []),
      select: this.steeringQueued(),
    });
    part.after?.(this.state);
    if (row.queued) this.state.steeringQueued = true;
  }

  /** Sends what is deferred, if anything: before any other transaction, and before stopping. */
  async flush(): Promise<void> {
    if (this.pending.length > 0) await this.write({});
  }

  /** The same messages `admitSteering` would take (admit's filter, steering kinds only). */
  private steeringQueued(): SqlPart {
    return sqlPart`EXISTS (
      SELECT 1 FROM inbox_messages m
      WHERE m.session_id = ${this.agent.sessionId}::text AND m.state = 'queued'
        AND m.kind IN ('steer', 'context', 'child_result')
        AND (m.target_agent_id = ${this.agent.id}::text OR (m.target_agent_id IS NULL AND ${this.agent.parentId === null}::boolean))
    ) AS "queued"`;
  }
}
