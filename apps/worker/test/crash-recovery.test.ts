import { afterEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "@handoff/db/testing";
import { METRIC } from "../src/metrics";
import { STEP_END } from "./fixtures/test-driver";
import { auditSessions } from "./helpers/audit-sessions";
import { storedMetric } from "./helpers/stored-metric";
import { createSessions, enqueueOneEach } from "./helpers/seed";
import { waitFor } from "./helpers/wait-for";
import { killAllWorkers, spawnWorker } from "./helpers/worker-process";

const pg = useTestDatabase();
afterEach(killAllWorkers);

const TTL_MS = 1000;

describe("crash recovery", () => {
  it("finishes the sessions of a worker killed mid-turn on another worker, losing and repeating nothing", async () => {
    const { db, url } = pg.current;
    // A's steps are slow enough that it is still mid-turn after B's process has started,
    // even on a loaded machine (three rounds of 1.5 s steps could all end first).
    const a = await spawnWorker(url, { concurrency: 16, leaseTtlMs: TTL_MS, pollMs: 100, stepMs: 4000 });
    const sessions = await createSessions(db, 10);
    for (const round of [1, 2, 3]) await enqueueOneEach(db, sessions, round);
    await waitFor("A to hold every session", async () => {
      const [row] = await db.sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM sessions WHERE lease_owner = ${a.id} AND status = 'running'`;
      return row!.n === sessions.length;
    });
    // B is up and idle before the crash, so the recovery time is the pool's, not a process start.
    const b = await spawnWorker(url, { concurrency: 16, leaseTtlMs: TTL_MS, pollMs: 100, stepMs: 50 });
    const stepsByA = async () =>
      (await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM events WHERE type = ${STEP_END}`)[0]!.n;
    await waitFor("A to record its first steps", async () => (await stepsByA()) > 0);

    const killedAt = new Date();
    a.child.kill("SIGKILL");
    // A was in the middle of its turns: some steps recorded, others in flight or not begun.
    expect(await stepsByA()).toBeLessThan(30);
    expect(await a.exited).toBe("SIGKILL");
    await waitFor(
      "every session to finish",
      async () => {
        const [row] = await db.sql<{ open: number }[]>`
          SELECT count(*)::int AS open FROM sessions WHERE lease_owner IS NOT NULL OR status <> 'idle'`;
        return row!.open === 0;
      },
      { timeoutMs: 20_000 },
    );

    const audit = await auditSessions(db, sessions);
    expect(audit.violations).toEqual([]);
    expect(audit.messages).toBe(30);
    // A was killed mid-turn: some of its steps were recorded and B did the rest, never again.
    const byA = audit.stepsBy.get(a.id) ?? 0;
    expect(byA).toBeGreaterThan(0);
    expect(byA + (audit.stepsBy.get(b.id) ?? 0)).toBe(30);
    // Every session still open at the crash was taken over from A by B.
    expect(audit.takeovers.length).toBeGreaterThan(0);
    expect(new Set(audit.takeovers.map((t) => `${t.from}>${t.to}`))).toEqual(new Set([`${a.id}>${b.id}`]));

    const firstResume = Math.min(...audit.takeovers.map((t) => t.at.getTime())) - killedAt.getTime();
    const [done] = await db.sql<{ at: Date }[]>`
      SELECT max(created_at) AS at FROM events WHERE session_id = ANY(${sessions}::text[]) AND type = 'turn.end'`;
    const allDone = done!.at.getTime() - killedAt.getTime();
    console.log(
      `recovery after SIGKILL (lease TTL ${TTL_MS} ms): first session resumed after ${firstResume} ms, ` +
        `all ${audit.takeovers.length} taken-over sessions finished after ${allDone} ms`,
    );
    // Bounded by the TTL plus a poll, not by luck.
    expect(firstResume).toBeLessThan(TTL_MS + 1500);

    b.child.kill("SIGTERM");
    expect(await b.exited).toBe(0);
    // B counted each takeover in the metrics it stored on stopping.
    expect(await storedMetric(db, b.id, METRIC.takeovers)).toBe(audit.takeovers.length);
  });
});
