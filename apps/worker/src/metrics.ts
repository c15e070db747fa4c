import { Counter, Gauge, Histogram, Registry } from "prom-client";

/** Names of the series a worker publishes; `/api/metrics` sums them over the workers. */
export const METRIC = {
  claims: "handoff_claims_total",
  takeovers: "handoff_lease_takeovers_total",
  fencingRefusals: "handoff_fencing_refusals_total",
  stepSeconds: "handoff_step_duration_seconds",
  sessionsHeld: "handoff_sessions_held",
} as const;

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;

/**
 * One registry per worker (not prom-client's global one: a process may run several workers
 * in tests). Its JSON is stored in `workers.metrics` at every heartbeat.
 */
export function createWorkerMetrics() {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    claims: new Counter({ name: METRIC.claims, help: "Sessions claimed by workers.", registers }),
    takeovers: new Counter({
      name: METRIC.takeovers,
      help: "Claims that took over another worker's expired lease.",
      registers,
    }),
    fencingRefusals: new Counter({
      name: METRIC.fencingRefusals,
      help: "Leases lost to a takeover, found by a refused renewal or a refused (FENCED) write.",
      registers,
    }),
    stepSeconds: new Histogram({
      name: METRIC.stepSeconds,
      help: "Duration of one model step, as reported by the session driver.",
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    }),
    sessionsHeld: new Gauge({ name: METRIC.sessionsHeld, help: "Sessions whose lease a worker holds now.", registers }),
  };
}
