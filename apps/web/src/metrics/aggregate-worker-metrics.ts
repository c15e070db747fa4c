import type { WorkerRow } from "@handoff/db/sql";
import { AggregatorRegistry, type Registry } from "prom-client";

interface StoredMetric {
  name: string;
  type: string;
  help: string;
  aggregator?: string;
  values: unknown[];
}

/**
 * Sums the metrics the workers stored at their last heartbeat (prom-client JSON) into one
 * registry, as prom-client's cluster mode does for the processes of one machine. Counters
 * and histograms count every worker heard from recently, stopped ones included, so totals
 * do not drop when a worker exits; gauges (sessions held now) count live workers only.
 */
export function aggregateWorkerMetrics(workers: readonly WorkerRow[], isLive: (w: WorkerRow) => boolean): Registry {
  const perWorker = workers.map((w) => {
    const metrics = Array.isArray(w.metrics) ? (w.metrics as unknown[]).filter(isStoredMetric) : [];
    return isLive(w) ? metrics : metrics.filter((m) => m.type !== "gauge");
  });
  return AggregatorRegistry.aggregate(perWorker);
}

function isStoredMetric(m: unknown): m is StoredMetric {
  const v = m as StoredMetric;
  return typeof v === "object" && v !== null && typeof v.name === "string" && typeof v.type === "string" && Array.isArray(v.values);
}
