import { findStuckLeases, readQueueStats, type WorkerRow } from "@handoff/db/sql";
import type { Sql } from "@handoff/db/client";
import { Gauge, Registry } from "prom-client";

/** Gauges read from the database at scrape time: the state of the inbox, the leases and the workers. */
export async function poolGauges(sql: Sql, input: { workers: readonly WorkerRow[]; leaseTtlMs: number }): Promise<Registry> {
  const registry = new Registry();
  const registers = [registry];
  const [queue, stuck] = await Promise.all([
    readQueueStats(sql),
    findStuckLeases(sql, { olderThanMs: 3 * input.leaseTtlMs, limit: 1 }),
  ]);
  new Gauge({ name: "handoff_inbox_queue_depth", help: "Inbox messages queued, not yet admitted.", registers }).set(
    queue.depth,
  );
  new Gauge({
    name: "handoff_inbox_oldest_queued_age_seconds",
    help: "Age of the oldest queued inbox message; 0 when none is queued.",
    registers,
  }).set(queue.oldestAgeSeconds);
  new Gauge({
    name: "handoff_stuck_leases",
    help: "Leases still owned but expired for more than 3 lease TTLs: work no worker is taking over.",
    registers,
  }).set(stuck.total);
  const heartbeat = new Gauge({
    name: "handoff_worker_heartbeat_age_seconds",
    help: "Seconds since each running (not stopped) worker last heartbeat; a dead worker's keeps growing.",
    labelNames: ["worker_id", "host", "pid"] as const,
    registers,
  });
  for (const w of input.workers) {
    if (w.stoppedAt) continue;
    heartbeat.set({ worker_id: w.id, host: w.host, pid: String(w.pid) }, w.heartbeatAgeSeconds);
  }
  return registry;
}
