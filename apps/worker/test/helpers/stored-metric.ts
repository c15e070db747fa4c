import type { Db } from "@handoff/db";

/** The value of a counter or gauge in a worker's metrics as stored at its last heartbeat (summed over labels). */
export async function storedMetric(db: Db, workerId: string, name: string): Promise<number | undefined> {
  const [row] = await db.sql<{ metrics: { name: string; values: { value: number }[] }[] | null }[]>`
    SELECT metrics FROM workers WHERE id = ${workerId}`;
  const metric = row?.metrics?.find((m) => m.name === name);
  return metric?.values.reduce((sum, v) => sum + v.value, 0);
}
