import os from "node:os";
import { Writable } from "node:stream";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { enqueue, readEvents } from "@handoff/db";
import { useTestDatabase } from "@handoff/db/testing";
import { collectMetrics } from "../../web/src/metrics/collect-metrics";
import { METRIC } from "../src/metrics";
import { startWorker, type RunningWorker } from "../src/worker";
import { createTestDriver, STEP_END } from "./fixtures/test-driver";
import { readSeries, readValue } from "./helpers/prometheus-text";
import { storedMetric } from "./helpers/stored-metric";
import { createSessions } from "./helpers/seed";
import { waitFor } from "./helpers/wait-for";

const pg = useTestDatabase();
const TTL_MS = 1000;
let worker: RunningWorker | null = null;
afterEach(async () => {
  await worker?.drain();
  worker = null;
});

describe("GET /api/metrics", () => {
  it("exposes queue depth and age, claims, takeovers, fencing refusals, step latency, heartbeat ages and stuck leases", async () => {
    const { db, url } = pg.current;
    const limits = { maxPayloadBytes: 1024 };
    // A worker that died a minute ago: its counters still count, its gauge no longer does.
    await db.sql`
      INSERT INTO workers (id, host, pid, concurrency, heartbeat_at, metrics)
      VALUES ('wrk_gone', 'elsewhere', 1, 1, now() - interval '60 seconds', ${JSON.stringify([
        { name: METRIC.claims, help: "", type: "counter", aggregator: "sum", values: [{ value: 5, labels: {} }] },
        { name: METRIC.sessionsHeld, help: "", type: "gauge", aggregator: "sum", values: [{ value: 2, labels: {} }] },
      ])}::text::jsonb)`;
    const [plain1, plain2, plain3, crashed, fenced, stuck] = await createSessions(db, 6);
    for (const id of [plain1!, plain2!, plain3!, crashed!, fenced!]) {
      await enqueue(db, { sessionId: id, kind: "prompt", payload: "hi" }, limits);
    }
    // Left by the dead worker: one session with work (to be taken over), one idle (stuck for good).
    await db.sql`
      UPDATE sessions SET lease_owner = 'wrk_gone', lease_epoch = 1, lease_expires_at = now() - interval '50 seconds'
      WHERE id IN (${crashed!}, ${stuck!})`;
    await db.sql`UPDATE sessions SET status = 'running' WHERE id = ${crashed!}`;

    const before = await collectMetrics(db, { leaseTtlMs: TTL_MS });
    expect(before.contentType).toMatch(/^text\/plain/);
    expect(readValue(before.text, "handoff_inbox_queue_depth")).toBe(5);
    expect(readValue(before.text, "handoff_inbox_oldest_queued_age_seconds")).toBeGreaterThan(0);
    expect(readValue(before.text, "handoff_stuck_leases")).toBe(2);
    expect(readValue(before.text, METRIC.claims)).toBe(5);
    expect(readValue(before.text, METRIC.sessionsHeld)).toBeUndefined();

    const logLines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    worker = await startWorker({
      databaseUrl: url,
      concurrency: 4,
      driver: createTestDriver({ stepMs: 300 }),
      leaseTtlMs: TTL_MS,
      pollMs: 100,
      heartbeatMs: 100,
      logger: pino({ level: "info" }, sink),
    });
    const w = worker;
    // Take the `fenced` session from under the worker while its step is in flight.
    await waitFor("the fenced session's turn to start", async () =>
      (await readEvents(db.sql, fenced!)).some((e) => e.type === "message.admit"),
    );
    await db.sql`
      UPDATE sessions SET lease_owner = 'wrk_other', lease_epoch = lease_epoch + 1, lease_expires_at = now() + interval '1 hour'
      WHERE id = ${fenced!}`;
    await waitFor("the other sessions to finish", async () => {
      const [row] = await db.sql<{ open: number }[]>`
        SELECT count(*)::int AS open FROM sessions
        WHERE id IN (${plain1!}, ${plain2!}, ${plain3!}, ${crashed!}) AND (lease_owner IS NOT NULL OR status <> 'idle')`;
      return row!.open === 0;
    });
    await waitFor("the worker to store its refusal and its idle gauge", async () => {
      return (
        (await storedMetric(db, w.id, METRIC.fencingRefusals)) === 1 &&
        (await storedMetric(db, w.id, METRIC.sessionsHeld)) === 0
      );
    });

    const after = await collectMetrics(db, { leaseTtlMs: TTL_MS });
    const steps = await db.sql`SELECT 1 FROM events WHERE type = ${STEP_END}`;
    expect(readValue(after.text, "handoff_inbox_queue_depth")).toBe(0);
    expect(readValue(after.text, "handoff_inbox_oldest_queued_age_seconds")).toBe(0);
    expect(readValue(after.text, METRIC.claims)).toBe(5 + 5);
    expect(readValue(after.text, METRIC.takeovers)).toBe(1);
    expect(readValue(after.text, METRIC.fencingRefusals)).toBe(1);
    expect(readValue(after.text, METRIC.sessionsHeld)).toBe(0);
    expect(steps).toHaveLength(4);
    expect(readValue(after.text, `${METRIC.stepSeconds}_count`)).toBe(4);
    expect(readValue(after.text, `${METRIC.stepSeconds}_bucket`, '{le="0.25"}')).toBe(0);
    expect(readValue(after.text, `${METRIC.stepSeconds}_bucket`, '{le="1"}')).toBe(4);
    const heartbeats = readSeries(after.text, "handoff_worker_heartbeat_age_seconds");
    expect(heartbeats.get(`{worker_id="${w.id}",host="${os.hostname()}",pid="${process.pid}"}`)).toBeLessThan(2);
    expect(heartbeats.get('{worker_id="wrk_gone",host="elsewhere",pid="1"}')).toBeGreaterThanOrEqual(60);
    expect(readValue(after.text, "handoff_stuck_leases")).toBe(1);
    expect(logLines).toContainEqual(
      expect.objectContaining({ level: 40, sessionId: stuck, owner: "wrk_gone", msg: expect.stringMatching(/^stuck lease/) }),
    );
  });
});
