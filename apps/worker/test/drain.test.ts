import { afterEach, describe, expect, it } from "vitest";
import { LEASE_CLAIM, LEASE_RELEASE } from "@handoff/db";
import { useTestDatabase } from "@handoff/db/testing";
import { STEP_END } from "./fixtures/test-driver";
import { auditSessions } from "./helpers/audit-sessions";
import { createSessions, enqueueOneEach } from "./helpers/seed";
import { waitFor } from "./helpers/wait-for";
import { killAllWorkers, spawnWorker } from "./helpers/worker-process";

const pg = useTestDatabase();
afterEach(killAllWorkers);

// Long enough that only a release, never an expiry, can explain a resume within a second;
// B's polling is as slow, so only the NOTIFY can wake it that fast.
const TTL_MS = 10_000;
const POLL_MS = 10_000;

describe("graceful drain", () => {
  it("releases a SIGTERMed worker's leases at once, and another worker resumes its sessions within a second", async () => {
    const { db, url } = pg.current;
    const a = await spawnWorker(url, { concurrency: 8, leaseTtlMs: TTL_MS, pollMs: 200, stepMs: 1500 });
    const sessions = await createSessions(db, 6);
    for (const round of [1, 2, 3]) await enqueueOneEach(db, sessions, round);
    await waitFor("A to hold every session", async () => {
      const [row] = await db.sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM sessions WHERE lease_owner = ${a.id} AND status = 'running'`;
      return row!.n === sessions.length;
    });
    const b = await spawnWorker(url, { concurrency: 8, leaseTtlMs: TTL_MS, pollMs: POLL_MS, stepMs: 50 });
    await waitFor("A to record a first step", async () => {
      const [row] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM events WHERE type = ${STEP_END}`;
      return row!.n > 0;
    });

    const termAt = Date.now();
    a.child.kill("SIGTERM");
    expect(await a.exited).toBe(0);
    await waitFor("B to finish every session", async () => {
      const [row] = await db.sql<{ open: number }[]>`
        SELECT count(*)::int AS open FROM sessions WHERE lease_owner IS NOT NULL OR status <> 'idle'`;
      return row!.open === 0;
    });

    const audit = await auditSessions(db, sessions);
    expect(audit.violations).toEqual([]);
    expect(audit.takeovers).toEqual([]);
    const gaps: number[] = [];
    for (const id of sessions) {
      const log = audit.events.get(id)!;
      const release = log.find((e) => e.type === LEASE_RELEASE && e.data.workerId === a.id);
      expect(release?.data.reason, `${id} released by A on drain`).toBe("drain");
      const resume = log.find((e) => e.seq > release!.seq && e.type === LEASE_CLAIM);
      expect(resume?.data.workerId, `${id} resumed by B`).toBe(b.id);
      gaps.push(resume!.createdAt.getTime() - release!.createdAt.getTime());
    }
    const [lastRelease] = await db.sql<{ at: Date }[]>`
      SELECT max(created_at) AS at FROM events WHERE type = ${LEASE_RELEASE} AND data->>'workerId' = ${a.id}`;
    console.log(
      `drain: SIGTERM to release ${lastRelease!.at.getTime() - termAt} ms; ` +
        `release to resume by another worker: max ${Math.max(...gaps)} ms over ${gaps.length} sessions`,
    );
    expect(Math.max(...gaps)).toBeLessThan(1000);
    const [row] = await db.sql<{ draining: Date | null; stopped: Date | null }[]>`
      SELECT draining_at AS draining, stopped_at AS stopped FROM workers WHERE id = ${a.id}`;
    expect(row!.draining).not.toBeNull();
    expect(row!.stopped).not.toBeNull();

    b.child.kill("SIGTERM");
    expect(await b.exited).toBe(0);
  });
});
