import { findStuckLeases, readQueueStats, readWorkers, type Sql } from "@handoff/db";

export interface WorkerView {
  id: string;
  host: string;
  pid: number;
  concurrency: number;
  heartbeatAgeSeconds: number;
  sessionsHeld: number;
  state: "running" | "draining" | "stopped" | "silent";
}

/** Workers seen in the last hour, with what they hold now. */
export async function workersView(sql: Sql, leaseTtlMs: number): Promise<WorkerView[]> {
  const [workers, held] = await Promise.all([
    readWorkers(sql, { withinMs: 60 * 60_000 }),
    sql<{ owner: string; n: number }[]>`
      SELECT lease_owner AS owner, count(*)::int AS n FROM sessions
      WHERE lease_owner IS NOT NULL AND lease_expires_at > now() GROUP BY lease_owner`,
  ]);
  const heldBy = new Map(held.map((h) => [h.owner, h.n]));
  return workers.map((w) => ({
    id: w.id,
    host: w.host,
    pid: w.pid,
    concurrency: w.concurrency,
    heartbeatAgeSeconds: Math.round(w.heartbeatAgeSeconds * 10) / 10,
    sessionsHeld: heldBy.get(w.id) ?? 0,
    state: w.stoppedAt ? "stopped" : w.drainingAt ? "draining" : w.heartbeatAgeSeconds * 1000 > leaseTtlMs ? "silent" : "running",
  }));
}

export interface QueueView {
  depth: number;
  oldestAgeSeconds: number;
  stuckLeases: { total: number; leases: { sessionId: string; owner: string; epoch: number; expiredSeconds: number }[] };
  failedHookDeliveries: { id: string; sessionId: string; event: string; url: string; attempts: number; lastError: string | null; at: string }[];
  /** The last 30 minutes, a bucket a minute: admissions, model steps and errors. */
  perMinute: { minute: string; admissions: number; steps: number; errors: number }[];
}

export async function queueView(sql: Sql, leaseTtlMs: number): Promise<QueueView> {
  const [stats, stuck, hooks, perMinute] = await Promise.all([
    readQueueStats(sql),
    findStuckLeases(sql, { olderThanMs: 3 * leaseTtlMs, limit: 50 }),
    sql<QueueView["failedHookDeliveries"]>`
      SELECT id, session_id AS "sessionId", event, url, attempts, last_error AS "lastError", created_at::text AS at
      FROM hook_deliveries WHERE status = 'failed' ORDER BY created_at DESC LIMIT 50`,
    sql<QueueView["perMinute"]>`
      SELECT to_char(m.minute, 'YYYY-MM-DD"T"HH24:MI:00"Z"') AS minute,
             count(e.*) FILTER (WHERE e.type = 'message.admit')::int AS admissions,
             count(e.*) FILTER (WHERE e.type = 'model-step.end')::int AS steps,
             count(e.*) FILTER (WHERE e.type = 'model-step.end' AND e.data ? 'error'
                                 OR e.type = 'agent.end' AND e.data->>'stopReason' = 'error')::int AS errors
      FROM generate_series(date_trunc('minute', now()) - interval '29 minutes', date_trunc('minute', now()), interval '1 minute')
           AS m(minute)
      LEFT JOIN events e ON e.created_at >= m.minute AND e.created_at < m.minute + interval '1 minute'
      GROUP BY m.minute ORDER BY m.minute`,
  ]);
  return { depth: stats.depth, oldestAgeSeconds: Math.round(stats.oldestAgeSeconds * 10) / 10, stuckLeases: stuck, failedHookDeliveries: hooks, perMinute };
}
