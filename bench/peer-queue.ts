/**
 * Peer queue: the same enqueue → claim → complete workload on graphile-worker 0.16.6 and on
 * Handoff's inbox/lease path, on the same database in the same run, at the same concurrency
 * and pool size.
 *
 * - graphile-worker: `addJob` from `makeWorkerUtils` by CONCURRENCY producers; then `run()`
 *   with `concurrency` CONCURRENCY and a no-op task until the jobs table is empty.
 * - Handoff: `enqueue` (one prompt to each of ITEMS pre-created sessions) by CONCURRENCY
 *   producers; then the real worker pool (`startWorker`, concurrency CONCURRENCY) claiming
 *   sessions (`claimSessions`), a driver that only `admit`s their message, and the pool's
 *   release — until nothing is queued or leased.
 *
 * `npm run bench -- peer-queue`; writes bench/results/peer-queue.json.
 */
import { admit, claimSessions, createDb, createSession, enqueue, releaseLease, type Db } from "@handoff/db";
import { startWorker, type SessionDriver } from "@handoff/worker";
import { Logger, makeWorkerUtils, run } from "graphile-worker";
import { startBenchServer } from "./lib/bench-database";
import { closedLoop, inParallel } from "./lib/closed-loop";
import { createCountingDb } from "./lib/counting-db";
import { num, ratio, report, type Table, type Target } from "./lib/report";

const CONCURRENCY = [8, 32];
const ITEMS = 2_000;
const TIMEOUT_MS = 120_000;
const silent = new Logger(() => () => {});

interface Phases {
  enqueuePerSecond: number;
  processPerSecond: number;
  /** ITEMS over the two phases' time together. */
  overallPerSecond: number;
}

const t0 = performance.now();
const bench = await startBenchServer();
const rows: { concurrency: number; graphile: Phases; handoff: Phases }[] = [];
let statements: Record<string, number> = {};
try {
  await bench.withDatabase(async (database) => {
    const utils = await makeWorkerUtils({ connectionString: database.url, logger: silent });
    try {
      await utils.migrate();
    } finally {
      await utils.release();
    }
    for (const concurrency of CONCURRENCY) {
      const graphile = await graphileRound(database.db, database.url, concurrency);
      const handoff = await handoffRound(database.db, database.url, concurrency);
      console.log(
        `concurrency ${concurrency}: graphile ${num(graphile.overallPerSecond, 0)}/s, handoff ${num(handoff.overallPerSecond, 0)}/s`,
      );
      rows.push({ concurrency, graphile, handoff });
    }
    statements = await countStatements(database.db, database.url);
  });
} finally {
  await bench.stop();
}

async function graphileRound(db: Db, url: string, concurrency: number): Promise<Phases> {
  const pool = concurrency + 3;
  const utils = await makeWorkerUtils({ connectionString: url, logger: silent, maxPoolSize: pool });
  let enqueueSeconds: number;
  try {
    const loop = await closedLoop({ concurrency, durationMs: TIMEOUT_MS, maxOps: ITEMS, op: (_, i) => utils.addJob("bench", { i }) });
    enqueueSeconds = loop.seconds;
  } finally {
    await utils.release();
  }
  let handled = 0;
  const started = performance.now();
  const runner = await run({
    connectionString: url,
    concurrency,
    maxPoolSize: pool,
    noHandleSignals: true,
    pollInterval: 2_000,
    logger: silent,
    taskList: { bench: async () => void handled++ },
  });
  try {
    await until("graphile-worker to complete every job", async () => {
      const [row] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker._private_jobs`;
      return row!.n === 0;
    });
  } finally {
    await runner.stop();
  }
  const processSeconds = (performance.now() - started) / 1000;
  if (handled !== ITEMS) throw new Error(`graphile-worker ran ${handled} jobs, not ${ITEMS}`);
  return phases(enqueueSeconds, processSeconds);
}

async function handoffRound(db: Db, url: string, concurrency: number): Promise<Phases> {
  // One message per session: the session is the unit a worker claims.
  const roots = new Map<string, string>();
  await inParallel(Array.from({ length: ITEMS }), 16, async () => {
    const s = await createSession(db, { mode: "interactive" });
    roots.set(s.sessionId, s.rootAgentId);
  });
  const ids = [...roots.keys()];
  const producer = createDb(url, { max: concurrency + 3, applicationName: "bench-producer" });
  let enqueueSeconds: number;
  try {
    const loop = await closedLoop({
      concurrency,
      durationMs: TIMEOUT_MS,
      maxOps: ITEMS,
      op: (_, i) => enqueue(producer, { sessionId: ids[i]!, kind: "prompt", payload: { i } }, { maxPayloadBytes: 1024 }),
    });
    enqueueSeconds = loop.seconds;
  } finally {
    await producer.close();
  }
  let admitted = 0;
  const driver: SessionDriver = {
    async drive(ctx) {
      const sessionId = ctx.lease.sessionId;
      const got = await admit(ctx.db, { sessionId, agentId: roots.get(sessionId)!, isRoot: true, epoch: ctx.lease.epoch });
      admitted += got.messages.length;
    },
  };
  const started = performance.now();
  const worker = await startWorker({ databaseUrl: url, concurrency, driver, leaseTtlMs: 10_000, pollMs: 2_000, logLevel: "silent" });
  try {
    await until("Handoff's worker to admit and release every session", async () => {
      const [row] = await db.sql<{ queued: number; leased: number }[]>`
        SELECT (SELECT count(*)::int FROM inbox_messages WHERE state = 'queued') AS queued,
               (SELECT count(*)::int FROM sessions WHERE lease_owner IS NOT NULL) AS leased`;
      return row!.queued === 0 && row!.leased === 0;
    });
  } finally {
    await worker.stop();
  }
  const processSeconds = (performance.now() - started) / 1000;
  if (admitted !== ITEMS) throw new Error(`Handoff admitted ${admitted} messages, not ${ITEMS}`);
  return phases(enqueueSeconds, processSeconds);
}

/** Statements one item costs on Handoff's path, step by step (the same packages/db calls on a counting pool). */
async function countStatements(db: Db, url: string): Promise<Record<string, number>> {
  const n = 50;
  const counting = createCountingDb(url, { max: 2 });
  const totals: Record<string, number> = { enqueue: 0, claim: 0, admit: 0, release: 0 };
  try {
    await counting.sql`SELECT 1`;
    for (let i = 0; i < n; i++) {
      const { sessionId, rootAgentId } = await createSession(db, { mode: "interactive" });
      const step = async (name: string, fn: () => Promise<unknown>) => {
        counting.reset();
        await fn();
        totals[name]! += counting.total();
      };
      await step("enqueue", () => enqueue(counting, { sessionId, kind: "prompt", payload: { i } }, { maxPayloadBytes: 1024 }));
      let claimed: { sessionId: string; epoch: number }[] = [];
      await step("claim", async () => (claimed = await claimSessions(counting, { workerId: "bench", limit: 1, ttlMs: 10_000 })));
      const lease = { sessionId, epoch: claimed[0]!.epoch, workerId: "bench" };
      await step("admit", () => admit(counting, { sessionId, agentId: rootAgentId, isRoot: true, epoch: lease.epoch }));
      await step("release", () => releaseLease(counting, lease));
    }
  } finally {
    await counting.close();
  }
  return Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, v / n]));
}

function phases(enqueueSeconds: number, processSeconds: number): Phases {
  return {
    enqueuePerSecond: ITEMS / enqueueSeconds,
    processPerSecond: ITEMS / processSeconds,
    overallPerSecond: ITEMS / (enqueueSeconds + processSeconds),
  };
}

async function until(what: string, done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${TIMEOUT_MS} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const phaseRows = (name: string, key: keyof Phases) =>
  rows.map((r) => [name, r.concurrency, num(r.graphile[key], 0), num(r.handoff[key], 0), ratio(r.handoff[key], r.graphile[key])]);
const tables: Table[] = [
  {
    title: `Peer queue: ${ITEMS} items enqueue → claim → complete, Handoff's inbox/lease path vs graphile-worker 0.16.6 (items/s)`,
    columns: ["phase", "concurrency", "graphile-worker", "Handoff", "Handoff / graphile"],
    rows: [
      ...phaseRows("enqueue", "enqueuePerSecond"),
      ...phaseRows("claim → complete", "processPerSecond"),
      ...phaseRows("both phases", "overallPerSecond"),
    ],
    notes: [
      "same database, same run; pools of concurrency + 3 connections on both sides; graphile first at each concurrency",
      "Handoff's item: enqueue (message + its event, NOTIFY) → claimSessions (lease + lease.claim event) → admit (turn + events) → release (lease.release event)",
      "graphile's item: add_job → get_job → a no-op task → complete_job: 3 statements, 3 commits",
      `Handoff's statements per item (BEGIN/COMMIT included): ${Object.entries(statements)
        .map(([k, v]) => `${k} ${num(v, 1)}`)
        .join(", ")}; 4 commits`,
    ],
  },
];
const targets: Target[] = [];
await report({
  bench: "peer-queue",
  title: "Peer queue",
  seconds: Math.round((performance.now() - t0) / 1000),
  machine: bench.machine,
  tables,
  targets,
  data: { items: ITEMS, rows, handoffStatementsPerItem: statements },
});
