/**
 * Scale: headless sessions of a root and 3 subagents each (the root spawns the 3 in one step,
 * each replies at once, then the root replies) on 2 `handoff worker` processes, against
 * model-sim in a process of its own answering at once. All prompts are enqueued together;
 * measured at 100 sessions (the baseline) and 1,000: wall time, peak RSS per worker, CPU per
 * session, database bytes per session, and how each grows.
 *
 * A worker's pool holds `concurrency + 3` connections, so 2 workers cannot each drive 500
 * sessions at once on a Postgres with the default 100 connections: they run CONCURRENCY
 * sessions at a time each and the rest wait, durably, in the inbox.
 *
 * `npm run bench -- scale [--sizes=100,1000]`; writes bench/results/scale.json.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createSession, enqueue, type Db } from "@handoff/db";
import type { Scenario } from "@handoff/model-sim";
import { startBenchServer } from "./lib/bench-database";
import { inParallel } from "./lib/closed-loop";
import { cpuSecondsOf, memoryOf, postgresCpuSeconds, spawnHandoffWorker, spawnModelSim, type HandoffWorker } from "./lib/processes";
import { num, ratio, report, type Table, type Target } from "./lib/report";

const sizesArg = process.argv.find((a) => a.startsWith("--sizes="));
const SIZES = sizesArg ? sizesArg.slice("--sizes=".length).split(",").map(Number) : [100, 1_000];
const WORKERS = 2;
const CONCURRENCY = 32;
const SUBAGENTS = 3;
/** Per size: a bound on the run (it fails rather than hang). */
const TIMEOUT_MS = (n: number) => 60_000 + n * 600;

const scenario: Scenario = {
  agents: {
    general: [
      {
        toolCalls: Array.from({ length: SUBAGENTS }, (_, i) => ({
          name: "task",
          args: { profile: "explore", prompt: `Look into part ${i + 1} and report back.` },
        })),
      },
      { toolCalls: [{ name: "reply", args: { value: "All three parts are done." } }] },
    ],
    explore: [{ toolCalls: [{ name: "reply", args: { value: "Part done; nothing to report." } }] }],
  },
};

interface ScaleRun {
  sessions: number;
  wallSeconds: number;
  sessionsPerSecond: number;
  workers: { peakRssMiB: number; cpuSeconds: number }[];
  /** Each worker's resident set when a quarter, half, three quarters and all of the sessions had ended. */
  rssAt: { done: number; rssMiB: number[] }[];
  postgresCpuSeconds: number;
  /** Growth of the database (every table with its indexes and TOAST), per session. */
  bytesPerSession: number;
  /** Growth of pg_database_size, per session. */
  databaseBytesPerSession: number;
  /** The largest tables' growth per session. */
  tableBytesPerSession: Record<string, number>;
  eventsPerSession: number;
  modelStepsPerSession: number;
  rootsReplied: number;
  subagentsReplied: number;
}

const t0 = performance.now();
const bench = await startBenchServer();
const dir = await mkdtemp(path.join(os.tmpdir(), "handoff-bench-scale-"));
const runs: ScaleRun[] = [];
try {
  const scenarioFile = path.join(dir, "scenario.json");
  await writeFile(scenarioFile, JSON.stringify(scenario));
  const sim = await spawnModelSim(scenarioFile);
  try {
    for (const n of SIZES) runs.push(await bench.withDatabase((database) => run(database.db, database.url, sim.url, n)));
  } finally {
    await sim.stop();
  }
} finally {
  await bench.stop();
  await rm(dir, { recursive: true, force: true });
}

async function run(db: Db, url: string, simUrl: string, n: number): Promise<ScaleRun> {
  const env = {
    HANDOFF_MODEL: "openai-compatible:sim",
    HANDOFF_BASE_URL: simUrl,
    HANDOFF_DATA_DIR: path.join(dir, `data-${n}`),
    HANDOFF_AGENTS_DIR: path.join(dir, "agents"),
  };
  const before = await sizes(db);
  const ids: string[] = [];
  await inParallel(Array.from({ length: n }), 16, async () => {
    ids.push((await createSession(db, { mode: "headless" })).sessionId);
  });
  const workers: HandoffWorker[] = [];
  try {
    for (let i = 0; i < WORKERS; i++) workers.push(await spawnHandoffWorker({ databaseUrl: url, concurrency: CONCURRENCY, env }));
    const backendPid = (await db.sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`)[0]!.pid;
    const pgCpuBefore = await postgresCpuSeconds(backendPid);
    const cpuBefore = await Promise.all(workers.map((w) => cpuSecondsOf(w.pid)));
    const started = Date.now();
    await inParallel(ids, 16, async (sessionId) => {
      await enqueue(db, { sessionId, kind: "prompt", payload: { text: "Split the work in three and report." } }, { maxPayloadBytes: 4096 });
    });
    const deadline = started + TIMEOUT_MS(n);
    let ended = 0;
    // Resident memory as the run progresses: a worker that keeps growing while it holds a fixed number of sessions leaks.
    const rssAt: { done: number; rssMiB: number[] }[] = [];
    let nextQuarter = 1;
    for (;;) {
      const [row] = await db.sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM sessions WHERE id = ANY(${ids}::text[]) AND status IN ('ended', 'cancelled')`;
      ended = row!.n;
      if (ended >= (nextQuarter * n) / 4) {
        const mem = await Promise.all(workers.map((w) => memoryOf(w.pid)));
        rssAt.push({ done: ended / n, rssMiB: mem.map((m) => Math.round(m?.rssMiB ?? NaN)) });
        while (ended >= (nextQuarter * n) / 4) nextQuarter++;
      }
      if (ended === n) break;
      if (Date.now() > deadline) throw new Error(`only ${ended} of ${n} sessions ended within ${TIMEOUT_MS(n) / 1000} s`);
      for (const w of workers) if (w.child.exitCode !== null) throw new Error(`a worker exited (${w.child.exitCode}):\n${w.output()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const [last] = await db.sql<{ at: Date }[]>`SELECT max(ended_at) AS at FROM sessions WHERE id = ANY(${ids}::text[])`;
    const wallSeconds = (last!.at.getTime() - started) / 1000;
    const memory = await Promise.all(workers.map((w) => memoryOf(w.pid)));
    const cpuAfter = await Promise.all(workers.map((w) => cpuSecondsOf(w.pid)));
    const pgCpu = (await postgresCpuSeconds(backendPid)) - pgCpuBefore;
    const after = await sizes(db);
    const [counts] = await db.sql<{ events: number; steps: number; roots: number; subagents: number }[]>`
      SELECT (SELECT count(*)::int FROM events WHERE session_id = ANY(${ids}::text[])) AS events,
             (SELECT coalesce(sum(model_steps), 0)::int FROM agents WHERE session_id = ANY(${ids}::text[])) AS steps,
             (SELECT count(*)::int FROM agents WHERE session_id = ANY(${ids}::text[]) AND parent_id IS NULL AND stop_reason = 'reply') AS roots,
             (SELECT count(*)::int FROM agents WHERE session_id = ANY(${ids}::text[]) AND parent_id IS NOT NULL AND stop_reason = 'reply') AS subagents`;
    const tableGrowth = Object.entries(after.tables)
      .map(([t, b]) => [t, (b - (before.tables[t] ?? 0)) / n] as const)
      .sort((x, y) => y[1] - x[1])
      .slice(0, 6);
    const result: ScaleRun = {
      sessions: n,
      wallSeconds,
      sessionsPerSecond: n / wallSeconds,
      workers: workers.map((_, i) => ({ peakRssMiB: memory[i]?.peakRssMiB ?? NaN, cpuSeconds: (cpuAfter[i] ?? NaN) - (cpuBefore[i] ?? NaN) })),
      rssAt,
      postgresCpuSeconds: pgCpu,
      bytesPerSession: (after.total - before.total) / n,
      databaseBytesPerSession: (after.database - before.database) / n,
      tableBytesPerSession: Object.fromEntries(tableGrowth),
      eventsPerSession: counts!.events / n,
      modelStepsPerSession: counts!.steps / n,
      rootsReplied: counts!.roots,
      subagentsReplied: counts!.subagents,
    };
    console.log(
      `${n} sessions: ${num(wallSeconds, 1)} s, peak RSS ${result.workers.map((w) => num(w.peakRssMiB, 0)).join(" / ")} MiB, ` +
        `${num(result.bytesPerSession / 1024, 1)} KiB/session, ${counts!.roots}/${n} replied`,
    );
    return result;
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
}

async function sizes(db: Db): Promise<{ total: number; database: number; tables: Record<string, number> }> {
  const rows = await db.sql<{ name: string; bytes: number }[]>`
    SELECT c.relname AS name, pg_total_relation_size(c.oid)::float8 AS bytes
    FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
    WHERE ns.nspname = 'public' AND c.relkind = 'r'`;
  const [database] = await db.sql<{ bytes: number }[]>`SELECT pg_database_size(current_database())::float8 AS bytes`;
  return {
    total: rows.reduce((s, r) => s + r.bytes, 0),
    database: database!.bytes,
    tables: Object.fromEntries(rows.map((r) => [r.name, r.bytes])),
  };
}

const base = runs[0]!;
const kib = (b: number) => num(b / 1024, 1);
const peak = (r: ScaleRun) => Math.max(...r.workers.map((w) => w.peakRssMiB));
const cpuPerSession = (r: ScaleRun) => (1000 * r.workers.reduce((s, w) => s + w.cpuSeconds, 0)) / r.sessions;
const tables: Table[] = [
  {
    title: `Scale: headless sessions of a root + ${SUBAGENTS} subagents on ${WORKERS} handoff workers (concurrency ${CONCURRENCY} each), model-sim answering at once`,
    columns: ["sessions", "wall s", "sessions/s", "peak RSS MiB (per worker)", "worker CPU ms/session", "postgres CPU ms/session", "KiB/session (tables)", "KiB/session (database)", "events/session", "replied"],
    rows: runs.map((r) => [
      r.sessions,
      num(r.wallSeconds, 1),
      num(r.sessionsPerSecond, 1),
      r.workers.map((w) => num(w.peakRssMiB, 0)).join(" / "),
      num(cpuPerSession(r), 1),
      num((1000 * r.postgresCpuSeconds) / r.sessions, 1),
      kib(r.bytesPerSession),
      kib(r.databaseBytesPerSession),
      num(r.eventsPerSession, 1),
      `${r.rootsReplied}/${r.sessions} roots, ${r.subagentsReplied}/${SUBAGENTS * r.sessions} subagents`,
    ]),
    notes: [
      `model steps per session: ${num(base.modelStepsPerSession, 1)} (root 2, each subagent 1) plus a title request; all prompts enqueued at once`,
      "largest tables per session (KiB): " +
        runs.map((r) => `${r.sessions}: ` + Object.entries(r.tableBytesPerSession).map(([t, b]) => `${t} ${kib(b)}`).join(", ")).join("; "),
      "workers' resident MiB at 25/50/75/100% of sessions ended: " +
        runs.map((r) => `${r.sessions}: ` + r.rssAt.map((a) => a.rssMiB.join("+")).join(", ")).join("; "),
      `a worker's pool is concurrency + 3 connections: ${WORKERS} × ${CONCURRENCY} sessions run at once, the rest wait in the inbox`,
    ],
  },
];
if (runs.length > 1) {
  const top = runs.at(-1)!;
  tables.push({
    title: `Growth from ${base.sessions} to ${top.sessions} sessions (${top.sessions / base.sessions}× the sessions)`,
    columns: ["measure", `${base.sessions}`, `${top.sessions}`, "growth", "ideal"],
    rows: [
      ["wall time (s)", num(base.wallSeconds, 1), num(top.wallSeconds, 1), ratio(top.wallSeconds, base.wallSeconds, 1), `${top.sessions / base.sessions}×`],
      ["peak RSS per worker (MiB, max)", num(peak(base), 0), num(peak(top), 0), ratio(peak(top), peak(base), 2), "≈ 1×"],
      ["worker CPU per session (ms)", num(cpuPerSession(base), 1), num(cpuPerSession(top), 1), ratio(cpuPerSession(top), cpuPerSession(base), 2), "1×"],
      ["bytes per session (tables)", kib(base.bytesPerSession), kib(top.bytesPerSession), ratio(top.bytesPerSession, base.bytesPerSession, 2), "1×"],
    ],
  });
}
const targets: Target[] = runs.map((r) => ({
  name: `${r.sessions} sessions all finished`,
  measured: `${r.rootsReplied}/${r.sessions} roots and ${r.subagentsReplied}/${SUBAGENTS * r.sessions} subagents replied in ${num(r.wallSeconds, 1)} s`,
  target: "every agent replies",
  met: r.rootsReplied === r.sessions && r.subagentsReplied === SUBAGENTS * r.sessions,
}));
await report({
  bench: "scale",
  title: "Scale",
  seconds: Math.round((performance.now() - t0) / 1000),
  machine: bench.machine,
  tables,
  targets,
  data: { workers: WORKERS, concurrency: CONCURRENCY, subagents: SUBAGENTS, runs },
});
