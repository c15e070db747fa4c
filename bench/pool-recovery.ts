import type { Db } from "@handoff/db";
import { STEP_END } from "../apps/worker/test/fixtures/test-driver";
import { auditSessions } from "../apps/worker/test/helpers/audit-sessions";
import { createSessions, enqueueOneEach } from "../apps/worker/test/helpers/seed";
import { waitFor } from "../apps/worker/test/helpers/wait-for";
import { spawnWorker } from "../apps/worker/test/helpers/worker-process";

export interface RecoveryResult {
  leaseTtlMs: number;
  pollMs: number;
  sessions: number;
  takenOver: number;
  /** SIGKILL to the first `lease.claim` that took a session over. */
  firstResumeMs: number;
  /** SIGKILL to the last taken-over session's last `turn.end`. */
  allFinishedMs: number;
  /** Rules broken (lost, twice-admitted or twice-run messages…): expected empty. */
  violations: string[];
}

/**
 * Worker A holds `sessions` sessions in the middle of their turns; worker B is up and idle.
 * A is SIGKILLed; B takes the sessions over once their leases expire and finishes them.
 */
export async function runRecovery(db: Db, url: string, opts: { sessions: number; leaseTtlMs: number; pollMs: number }): Promise<RecoveryResult> {
  const flags = { concurrency: opts.sessions, leaseTtlMs: opts.leaseTtlMs, pollMs: opts.pollMs, heartbeatMs: 1000 };
  const a = await spawnWorker(url, { ...flags, stepMs: 2000 });
  const sessions = await createSessions(db, opts.sessions);
  for (const round of [1, 2, 3]) await enqueueOneEach(db, sessions, round);
  const b = await spawnWorker(url, { ...flags, stepMs: 20 });
  try {
    await waitFor("A to be mid-turn on every session", async () => {
      const [row] = await db.sql<{ n: number }[]>`
        SELECT count(DISTINCT session_id)::int AS n FROM events WHERE type = ${STEP_END} AND session_id = ANY(${sessions}::text[])`;
      return row!.n === sessions.length;
    });
    const killedAt = Date.now();
    a.child.kill("SIGKILL");
    await a.exited;
    await waitFor(
      "B to finish every session",
      async () => {
        const [row] = await db.sql<{ open: number }[]>`
          SELECT count(*)::int AS open FROM sessions
          WHERE id = ANY(${sessions}::text[]) AND (lease_owner IS NOT NULL OR status <> 'idle')`;
        return row!.open === 0;
      },
      { timeoutMs: 10 * opts.leaseTtlMs + 30_000, intervalMs: 50 },
    );
    const audit = await auditSessions(db, sessions);
    const [done] = await db.sql<{ at: Date }[]>`
      SELECT max(created_at) AS at FROM events WHERE session_id = ANY(${sessions}::text[]) AND type = 'turn.end'`;
    return {
      leaseTtlMs: opts.leaseTtlMs,
      pollMs: opts.pollMs,
      sessions: sessions.length,
      takenOver: audit.takeovers.length,
      firstResumeMs: Math.min(...audit.takeovers.map((t) => t.at.getTime())) - killedAt,
      allFinishedMs: done!.at.getTime() - killedAt,
      violations: audit.violations,
    };
  } finally {
    a.child.kill("SIGKILL");
    b.child.kill("SIGTERM");
    await Promise.all([a.exited, b.exited]);
  }
}
