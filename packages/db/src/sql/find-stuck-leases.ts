import type { Sql, Tx } from "../client";

export interface StuckLease {
  sessionId: string;
  owner: string;
  epoch: number;
  /** Seconds since the lease expired. */
  expiredSeconds: number;
}

/**
 * Leases that ran out more than `olderThanMs` ago (3 TTLs, by convention) and that no worker
 * has claimed since: the owner is gone, and either no worker can take the session or none is
 * running. An operator should look. Uses the `lease_expires_at` index.
 */
export async function findStuckLeases(
  sql: Sql | Tx,
  input: { olderThanMs: number; limit?: number },
): Promise<{ total: number; leases: StuckLease[] }> {
  const rows = await sql<(StuckLease & { total: number })[]>`
    SELECT id AS "sessionId", lease_owner AS owner, lease_epoch AS epoch,
           extract(epoch FROM now() - lease_expires_at)::float8 AS "expiredSeconds",
           count(*) OVER ()::int AS total
    FROM sessions
    WHERE lease_owner IS NOT NULL
      AND lease_expires_at < now() - ${input.olderThanMs}::int * interval '1 millisecond'
    ORDER BY lease_expires_at
    LIMIT ${input.limit ?? 100}::int`;
  return {
    total: rows[0]?.total ?? 0,
    leases: rows.map(({ total: _, ...lease }) => lease),
  };
}
