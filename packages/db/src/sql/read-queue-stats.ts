import type { Sql, Tx } from "../client";

export interface QueueStats {
  /** Inbox messages waiting for admission, over all sessions. */
  depth: number;
  /** Age of the oldest of them, in seconds; 0 when the queue is empty. */
  oldestAgeSeconds: number;
}

/** The inbox backlog, read from the partial index over queued messages. */
export async function readQueueStats(sql: Sql | Tx): Promise<QueueStats> {
  const [row] = await sql<QueueStats[]>`
    SELECT count(*)::int AS depth,
           coalesce(extract(epoch FROM now() - min(queued_at)), 0)::float8 AS "oldestAgeSeconds"
    FROM inbox_messages WHERE state = 'queued'`;
  return row ?? { depth: 0, oldestAgeSeconds: 0 };
}
