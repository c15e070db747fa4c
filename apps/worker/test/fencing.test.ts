import { afterEach, describe, expect, it } from "vitest";
import { readEvents } from "@handoff/db";
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

describe("fencing", () => {
  it("refuses the next write of a worker paused past its lease, which leaves nothing behind after the takeover", async () => {
    const { db, url } = pg.current;
    // A ignores ctx.signal: only the database's epoch check can stop its write.
    const a = await spawnWorker(url, { leaseTtlMs: TTL_MS, pollMs: 100, heartbeatMs: 200, stepMs: 2500, ignoreSignal: true });
    const [sessionId] = await createSessions(db, 1);
    await enqueueOneEach(db, [sessionId!], 1);
    await waitFor("A to admit the message and start its step", async () => {
      const events = await readEvents(db.sql, sessionId!);
      return events.some((e) => e.type === "message.admit");
    });

    a.child.kill("SIGSTOP");
    const b = await spawnWorker(url, { leaseTtlMs: TTL_MS, pollMs: 100, stepMs: 50 });
    await waitFor("B to take the session over and finish it", async () => {
      const [s] = await db.sql<{ status: string; owner: string | null }[]>`
        SELECT status, lease_owner AS owner FROM sessions WHERE id = ${sessionId!}`;
      const events = await readEvents(db.sql, sessionId!);
      return s!.status === "idle" && s!.owner === null && events.some((e) => e.type === "turn.end");
    });
    const snapshot = async () => ({
      events: await readEvents(db.sql, sessionId!),
      session: await db.sql`SELECT status, last_seq, lease_owner, lease_epoch, lease_expires_at FROM sessions WHERE id = ${sessionId!}`,
      turns: await db.sql`SELECT id, status, ended_at FROM turns WHERE session_id = ${sessionId!} ORDER BY id`,
      inbox: await db.sql`SELECT id, state, admitted_turn_id FROM inbox_messages WHERE session_id = ${sessionId!} ORDER BY id`,
    });
    const afterTakeover = await snapshot();

    a.child.kill("SIGCONT");
    const refused = await a.waitForLog(
      "A's step write to be refused",
      (l) => l.sessionId === sessionId && l.code === "FENCED",
      10_000,
    );
    expect(refused.msg).toMatch(/lease lost/);
    // Give A time to do anything else it might: a release, a retry, a late event.
    await new Promise((r) => setTimeout(r, 3 * TTL_MS));
    expect(await snapshot()).toEqual(afterTakeover);

    const audit = await auditSessions(db, [sessionId!]);
    expect(audit.violations).toEqual([]);
    expect(audit.takeovers.map((t) => [t.from, t.to])).toEqual([[a.id, b.id]]);
    expect(audit.stepsBy).toEqual(new Map([[b.id, 1]]));
    expect(afterTakeover.events.filter((e) => e.type === STEP_END)).toHaveLength(1);
    await waitFor("A to report the refusal in its metrics", async () => {
      return (await storedMetric(db, a.id, METRIC.fencingRefusals)) === 1;
    });

    a.child.kill("SIGTERM");
    b.child.kill("SIGTERM");
    expect(await Promise.all([a.exited, b.exited])).toEqual([0, 0]);
  });
});
