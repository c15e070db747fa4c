import type { Sql, Tx } from "../client";

export interface WorkerRow {
  id: string;
  host: string;
  pid: number;
  concurrency: number;
  heartbeatAgeSeconds: number;
  drainingAt: Date | null;
  stoppedAt: Date | null;
  /** prom-client `getMetricsAsJSON()` output stored at the worker's last heartbeat. */
  metrics: unknown;
}

/** Workers that heartbeat or stopped within the last `withinMs`: the ones metrics still speak for. */
export async function readWorkers(sql: Sql | Tx, input: { withinMs: number }): Promise<WorkerRow[]> {
  return sql<WorkerRow[]>`
    SELECT id, host, pid, concurrency,
           extract(epoch FROM now() - heartbeat_at)::float8 AS "heartbeatAgeSeconds",
           draining_at AS "drainingAt", stopped_at AS "stoppedAt", metrics
    FROM workers
    WHERE greatest(heartbeat_at, coalesce(stopped_at, heartbeat_at)) > now() - ${input.withinMs}::int * interval '1 millisecond'
    ORDER BY started_at`;
}
