import os from "node:os";
import { newId, type Db } from "@handoff/db";

/** Records this process in `workers` so operators (and other workers) can see it. */
export async function registerWorker(db: Db, concurrency: number): Promise<string> {
  const id = newId("wrk");
  await db.sql`
    INSERT INTO workers (id, host, pid, concurrency) VALUES (${id}, ${os.hostname()}, ${process.pid}, ${concurrency})`;
  return id;
}
