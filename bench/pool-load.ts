import { enqueue, type Db } from "@handoff/db";
import { createSessions } from "../apps/worker/test/helpers/seed";
import { waitFor } from "../apps/worker/test/helpers/wait-for";
import { spawnWorker, type WorkerFlags } from "../apps/worker/test/helpers/worker-process";
import { distribution, type Distribution } from "./pool-percentiles";

export interface LoadResult {
  ratePerSecond: number;
  seconds: number;
  workers: number;
  concurrency: number;
  stepMs: number;
  sessions: number;
  enqueued: number;
  /** Enqueue to admission, from the database's own timestamps (each transaction's start). */
  latencyMs: Distribution;
  /** Messages admitted per second, from the first enqueue to the last admission. */
  admittedPerSecond: number;
}

/**
 * Open-loop load: `ratePerSecond` prompts, each to a random one of `sessions` sessions, for
 * `seconds`, against `workers` worker processes. A prompt to a session in the middle of a
 * turn waits for that turn to end, as it would in production.
 */
export async function runLoad(
  db: Db,
  url: string,
  opts: { ratePerSecond: number; seconds: number; workers: number; sessions: number; flags: WorkerFlags },
): Promise<LoadResult> {
  const workers = await Promise.all(Array.from({ length: opts.workers }, () => spawnWorker(url, opts.flags)));
  try {
    const sessions = await createSessions(db, opts.sessions);
    const total = Math.round(opts.ratePerSecond * opts.seconds);
    const started = performance.now();
    const inFlight: Promise<unknown>[] = [];
    const ids: string[] = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / opts.ratePerSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const sessionId = sessions[Math.floor(Math.random() * sessions.length)]!;
      inFlight.push(
        enqueue(db, { sessionId, kind: "prompt", payload: { i } }, { maxPayloadBytes: 1024 }).then((r) => ids.push(r.messageId)),
      );
    }
    await Promise.all(inFlight);
    await waitFor(
      "every message to be admitted",
      async () => (await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM inbox_messages WHERE state = 'queued'`)[0]!.n === 0,
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    const rows = await db.sql<{ ms: number }[]>`
      SELECT extract(epoch FROM admitted_at - queued_at)::float8 * 1000 AS ms
      FROM inbox_messages WHERE id = ANY(${ids}::text[])`;
    const [span] = await db.sql<{ seconds: number }[]>`
      SELECT extract(epoch FROM max(admitted_at) - min(queued_at))::float8 AS seconds
      FROM inbox_messages WHERE id = ANY(${ids}::text[])`;
    return {
      ratePerSecond: opts.ratePerSecond,
      seconds: opts.seconds,
      workers: opts.workers,
      concurrency: opts.flags.concurrency ?? 8,
      stepMs: opts.flags.stepMs ?? 0,
      sessions: opts.sessions,
      enqueued: ids.length,
      latencyMs: distribution(rows.map((r) => r.ms)),
      admittedPerSecond: Math.round(ids.length / span!.seconds),
    };
  } finally {
    for (const w of workers) w.child.kill("SIGTERM");
    await Promise.all(workers.map((w) => w.exited));
  }
}
