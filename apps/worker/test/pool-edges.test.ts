import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { appendEvents, cancelMessage, enqueue, fencedTransaction, isHandoffError, readEvents, type Lease } from "@handoff/db";
import { useTestDatabase } from "@handoff/db/testing";
import type { SessionDriver } from "../src/driver";
import { sleep } from "../src/sleep";
import { startWorker, type RunningWorker } from "../src/worker";
import { createSessions } from "./helpers/seed";
import { waitFor } from "./helpers/wait-for";

const pg = useTestDatabase();
const silent = pino({ level: "silent" });
const limits = { maxPayloadBytes: 1024 };
const running: RunningWorker[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((w) => w.drain()));
});

async function start(driver: SessionDriver | null, extra: { drainGraceMs?: number } = {}): Promise<RunningWorker> {
  const w = await startWorker({
    databaseUrl: pg.current.url,
    concurrency: 2,
    driver,
    leaseTtlMs: 1000,
    pollMs: 100,
    heartbeatMs: 100,
    logger: silent,
    ...extra,
  });
  running.push(w);
  return w;
}

describe("the session pool", () => {
  it("claims nothing when no driver is configured", async () => {
    const { db } = pg.current;
    const [sessionId] = await createSessions(db, 1);
    await start(null);
    await enqueue(db, { sessionId: sessionId!, kind: "prompt", payload: "hi" }, limits);
    await sleep(500);
    const [row] = await db.sql<{ owner: string | null; epoch: number }[]>`
      SELECT lease_owner AS owner, lease_epoch AS epoch FROM sessions WHERE id = ${sessionId!}`;
    expect(row).toEqual({ owner: null, epoch: 0 });
  });

  it("backs off a session whose driver keeps failing instead of re-claiming it in a loop", async () => {
    const { db } = pg.current;
    const [sessionId] = await createSessions(db, 1);
    const { messageId } = await enqueue(db, { sessionId: sessionId!, kind: "prompt", payload: "hi" }, limits);
    await start({
      async drive() {
        throw new Error("driver bug");
      },
    });
    await sleep(1000);
    const claims = (await readEvents(db.sql, sessionId!)).filter((e) => e.type === "lease.claim");
    const releases = (await readEvents(db.sql, sessionId!)).filter((e) => e.type === "lease.release");
    // Pauses of 100, 200, 400 ms… allow a handful of attempts in a second, not hundreds.
    expect(claims.length).toBeGreaterThanOrEqual(2);
    expect(claims.length).toBeLessThanOrEqual(5);
    expect(releases.every((e) => e.data.reason === "error")).toBe(true);
    await cancelMessage(db, { sessionId: sessionId!, messageId }); // leave nothing for the next test to claim
  });

  it("releases the lease of a driver that ignores the drain once the grace is over, so its late write is refused", async () => {
    const { db } = pg.current;
    const [sessionId] = await createSessions(db, 1);
    let held: Lease | null = null;
    let lateWrite: Promise<unknown> | null = null;
    const w = await start(
      {
        drive(ctx) {
          held = ctx.lease;
          // Ignores ctx.draining and ctx.signal alike, then writes (through a pool that outlives the worker's).
          lateWrite = sleep(2500).then(() =>
            fencedTransaction(db, ctx.lease, (tx) => appendEvents(tx, ctx.lease.sessionId, [{ type: "late" }])),
          );
          return lateWrite.then(() => {});
        },
      },
      { drainGraceMs: 300 },
    );
    await enqueue(db, { sessionId: sessionId!, kind: "prompt", payload: "hi" }, limits);
    await waitFor("the session to be claimed", () => held);

    const startedAt = Date.now();
    await w.drain();
    running.length = 0;
    // Grace (300 ms) plus the unwind allowance (1 s), not the driver's 2.5 s.
    expect(Date.now() - startedAt).toBeLessThan(2000);
    const events = await readEvents(db.sql, sessionId!);
    expect(events.at(-1)).toMatchObject({ type: "lease.release", data: { reason: "drain", epoch: held!.epoch } });

    const outcome = await lateWrite!.then(
      () => "written",
      (e: unknown) => (isHandoffError(e, "FENCED") ? "FENCED" : String(e)),
    );
    expect(outcome).toBe("FENCED");
    expect((await readEvents(db.sql, sessionId!)).map((e) => e.type)).not.toContain("late");
  });
});
