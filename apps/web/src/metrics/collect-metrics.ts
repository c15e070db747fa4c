import { readWorkers } from "@handoff/db/sql";
import type { Db } from "@handoff/db/client";
import { Registry } from "prom-client";
import { aggregateWorkerMetrics } from "./aggregate-worker-metrics";
import { poolGauges } from "./pool-gauges";

/** Workers heard from within this window speak in the metrics; older rows are history. */
const WORKER_WINDOW_MS = 60 * 60 * 1000;

export interface CollectedMetrics {
  text: string;
  contentType: string;
}

/**
 * What `GET /api/metrics` serves, in Prometheus text format: the workers' own series (claims,
 * takeovers, fencing refusals, step latency, sessions held), summed over the workers, plus
 * gauges read from the database now (queue depth and age, stuck leases, heartbeat ages).
 */
export async function collectMetrics(db: Db, options: { leaseTtlMs: number }): Promise<CollectedMetrics> {
  const workers = await readWorkers(db.sql, { withinMs: WORKER_WINDOW_MS });
  // A worker that missed three TTLs of heartbeats has lost its leases: its gauges are stale.
  const isLive = (w: (typeof workers)[number]) => !w.stoppedAt && w.heartbeatAgeSeconds * 1000 < 3 * options.leaseTtlMs;
  const registry = Registry.merge([
    aggregateWorkerMetrics(workers, isLive),
    await poolGauges(db.sql, { workers, leaseTtlMs: options.leaseTtlMs }),
  ]);
  return { text: await registry.metrics(), contentType: registry.contentType };
}
