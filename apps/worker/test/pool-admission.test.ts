import { afterEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "@handoff/db/testing";
import { auditSessions } from "./helpers/audit-sessions";
import { createSessions, enqueueOneEach } from "./helpers/seed";
import { waitFor } from "./helpers/wait-for";
import { killAllWorkers, spawnWorker } from "./helpers/worker-process";

const pg = useTestDatabase();
afterEach(killAllWorkers);

describe("a pool of worker processes", () => {
  it("admits each of 900 messages to 300 sessions exactly once, by the worker holding the session's lease", async () => {
    const { db, url } = pg.current;
    const workers = await Promise.all(
      [1, 2, 3].map(() => spawnWorker(url, { concurrency: 8, leaseTtlMs: 2000, pollMs: 500, stepMs: 2 })),
    );
    const sessions = await createSessions(db, 300);
    // Three rounds, enqueued while the workers run: later messages land on sessions that are
    // held, mid-turn or just released.
    for (const round of [1, 2, 3]) await enqueueOneEach(db, sessions, round);

    await waitFor(
      "every message to be stepped and every session released",
      async () => {
        const [row] = await db.sql<{ open: number }[]>`
          SELECT (SELECT count(*) FROM inbox_messages WHERE state = 'queued')
               + (SELECT count(*) FROM sessions WHERE lease_owner IS NOT NULL OR status <> 'idle') AS open`;
        return Number(row!.open) === 0;
      },
      { timeoutMs: 45_000, intervalMs: 200 },
    );
    const audit = await auditSessions(db, sessions);
    expect(audit.violations).toEqual([]);
    expect(audit.messages).toBe(900);
    expect([...audit.admittedBy.values()].reduce((a, b) => a + b, 0)).toBe(900);
    // All three took part, and none took over a live lease.
    expect(new Set(audit.admittedBy.keys())).toEqual(new Set(workers.map((w) => w.id)));
    expect(audit.takeovers).toEqual([]);

    for (const w of workers) w.child.kill("SIGTERM");
    expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0, 0]);
  });
});
