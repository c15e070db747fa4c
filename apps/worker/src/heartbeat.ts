import type { Db } from "@handoff/db";
import type { Registry } from "prom-client";
import type { Logger } from "./logger";
import { every, type Periodic } from "./periodic";

export interface HeartbeatOptions {
  db: Db;
  workerId: string;
  intervalMs: number;
  registry: Registry;
  log: Logger;
  /** Also run at each beat (the stuck-lease watch). */
  alsoEachBeat?: () => Promise<void>;
}

/** Writes the worker's heartbeat and its metrics (prom-client JSON) in one UPDATE. */
export async function beat(db: Db, workerId: string, registry: Registry): Promise<void> {
  const metrics = JSON.stringify(await registry.getMetricsAsJSON());
  await db.sql`
    UPDATE workers SET heartbeat_at = now(), metrics = ${metrics}::text::jsonb WHERE id = ${workerId}::text`;
}

export function startHeartbeat(options: HeartbeatOptions): Periodic {
  return every(options.intervalMs, async () => {
    try {
      await beat(options.db, options.workerId, options.registry);
      await options.alsoEachBeat?.();
    } catch (e) {
      options.log.warn({ err: e }, "heartbeat failed; will retry");
    }
  });
}
