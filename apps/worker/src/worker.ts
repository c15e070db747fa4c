import { createDb, type Db } from "@handoff/db";
import { registerWorker } from "./register-worker";

export interface WorkerOptions {
  databaseUrl: string;
  concurrency: number;
  heartbeatMs?: number;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}

export interface RunningWorker {
  id: string;
  /** Stops heartbeating, marks the worker stopped and closes its pool. */
  stop(): Promise<void>;
}

/** A worker process's lifecycle: register, heartbeat, stop. Session driving builds on this. */
export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const db: Db = createDb(options.databaseUrl, { max: options.concurrency + 2, applicationName: "handoff-worker" });
  const id = await registerWorker(db, options.concurrency);
  const heartbeat = setInterval(() => {
    db.sql`UPDATE workers SET heartbeat_at = now() WHERE id = ${id}`.catch((e: Error) =>
      options.log?.("heartbeat failed", { workerId: id, error: e.message }),
    );
  }, options.heartbeatMs ?? 2000);
  options.log?.("worker started", { workerId: id, concurrency: options.concurrency });
  return {
    id,
    async stop() {
      clearInterval(heartbeat);
      await db.sql`UPDATE workers SET stopped_at = now() WHERE id = ${id}`.catch(() => {});
      await db.close();
      options.log?.("worker stopped", { workerId: id });
    },
  };
}
