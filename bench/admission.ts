/**
 * Admission: `session.prompt` over HTTP (the API in a web process of its own, as deployed)
 * against the physical limit — a raw `INSERT …; NOTIFY` of the same inbox row in one round
 * trip — on the same Postgres, in the same run, with the same pool size (the web app's 10),
 * at concurrency 1, 16 and 64. Beside them, the floor of the HTTP hop: a bare Node HTTP server
 * in a process of its own doing that raw write (`api-server.ts floor`), so the cost of the hop
 * itself and Handoff's cost above it show apart. Rounds of the three alternate, so drift on a
 * shared machine falls on all. Then counts the statements one prompt costs and profiles the
 * web process.
 *
 * `npm run bench -- admission`; writes bench/results/admission.json.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createCaller, EventHub, RateLimiter, TokenVerifier } from "@handoff/api";
import { createSession, createToken, newId, type Db } from "@handoff/db";
import { builtinProfiles, profileRegistry } from "@handoff/runtime";
import { startBenchServer } from "./lib/bench-database";
import { closedLoop, inParallel, pool, type LoopResult } from "./lib/closed-loop";
import { HttpPostClient } from "./lib/http-post-client";
import { rawAdmission } from "./lib/raw-admission";
import { createCountingDb } from "./lib/counting-db";
import { summarizeMainThreadProfile, type ProfileSummary } from "./lib/cpu-profile";
import { cpuSecondsOf, postgresCpuSeconds, spawnTs, type BenchProcess } from "./lib/processes";
import { num, ratio, report, type Table, type Target } from "./lib/report";

const CONCURRENCY = [1, 16, 64];
const ROUNDS = 5;
const ROUND_MS = 1_500;
const WARMUP_MS = 600;
/** Prompts go round-robin to this many interactive sessions (a session holds a few messages, as in life). */
const SESSIONS = 2_000;
const TEXT = "Summarize the open issues and propose a plan.";
const apiServer = fileURLToPath(new URL("./lib/api-server.ts", import.meta.url));

interface Side {
  loop: LoopResult;
  /** CPU per operation, in ms: the web process (Handoff only), Postgres, and this load generator. */
  cpuMs: { web: number | null; postgres: number; client: number };
}

/** A backend of the benchmark's server, to find its postmaster (for the server's CPU time). */
let backendPid = 0;

const t0 = performance.now();
const bench = await startBenchServer();
let measured: Awaited<ReturnType<typeof measure>>;
try {
  measured = await bench.withDatabase((database) => measure(database.db, database.url));
} finally {
  await bench.stop();
}

async function measure(db: Db, url: string) {
  const { token } = await createToken(db, { role: "operator", workspaceId: "default" });
  backendPid = (await db.sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`)[0]!.pid;
  const sessions: string[] = [];
  await inParallel(Array.from({ length: SESSIONS }), 16, async () => {
    sessions.push((await createSession(db, { mode: "interactive" })).sessionId);
  });
  let next = 0;
  const nextSession = () => sessions[next++ % sessions.length]!;

  // The physical limit: the same row, one simple-protocol round trip, one commit.
  const raw = () => rawAdmission(db, newId("msg"), nextSession(), TEXT);

  const rows: { concurrency: number; raw: Side; floor: Side; handoff: Side }[] = [];
  let api = await startApi(url);
  const floorServer = await startApi(url, [], "floor");
  try {
    const client = promptClient(api.url, token);
    const floorClient = promptClient(floorServer.url, token);
    const sides = [
      { name: "raw", op: raw, pid: null },
      { name: "floor", op: () => floorClient.prompt(nextSession()), pid: floorServer.pid },
      { name: "handoff", op: () => client.prompt(nextSession()), pid: api.pid },
    ] as const;
    // The web processes were just started: let V8 compile their hot paths before anything counts.
    for (const side of sides) await closedLoop({ concurrency: 16, durationMs: 3_000, op: side.op });
    for (const concurrency of CONCURRENCY) {
      for (const side of sides) await closedLoop({ concurrency, durationMs: WARMUP_MS, op: side.op });
      const rounds = sides.map(() => ({ loops: [] as LoopResult[], web: 0, postgres: 0, client: 0 }));
      for (let r = 0; r < ROUNDS; r++) {
        for (const [i, side] of sides.entries()) {
          const round = await withCpu(side.pid, () => closedLoop({ concurrency, durationMs: ROUND_MS, op: side.op }));
          rounds[i]!.loops.push(round.result);
          rounds[i]!.web += round.web ?? 0;
          rounds[i]!.postgres += round.postgres;
          rounds[i]!.client += round.client;
        }
      }
      const [rawSide, floorSide, handoffSide] = rounds.map((acc, i): Side => {
        const loop = pool(acc.loops);
        const per = (seconds: number) => (1000 * seconds) / loop.ops;
        return { loop, cpuMs: { web: sides[i]!.pid === null ? null : per(acc.web), postgres: per(acc.postgres), client: per(acc.client) } };
      });
      rows.push({ concurrency, raw: rawSide!, floor: floorSide!, handoff: handoffSide! });
      console.log(
        `concurrency ${concurrency}: ` +
          [rawSide!, floorSide!, handoffSide!]
            .map((side, i) => `${sides[i]!.name} ${num(side.loop.throughput, 0)}/s p99 ${side.loop.latencyMs.p99} ms`)
            .join("; "),
      );
    }
    floorClient.close();
    client.close();
    await api.stop();

    // Where the web process's time goes: a CPU profile of it under the middle load.
    const profileDir = await mkdtemp(path.join(os.tmpdir(), "handoff-bench-prof-"));
    let profile: ProfileSummary | null = null;
    try {
      api = await startApi(url, ["--cpu-prof", "--cpu-prof-dir", profileDir]);
      const profiled = promptClient(api.url, token);
      await closedLoop({ concurrency: 16, durationMs: 3_000, op: () => profiled.prompt(nextSession()) });
      const fromUs = Number(process.hrtime.bigint() / 1000n);
      await closedLoop({ concurrency: 16, durationMs: 3_000, op: () => profiled.prompt(nextSession()) });
      profiled.close();
      await api.stop();
      profile = await summarizeMainThreadProfile(profileDir, 14, fromUs);
    } finally {
      await rm(profileDir, { recursive: true, force: true });
    }
    return { rows, statements: await countStatements(url, sessions, token), profile };
  } finally {
    await api.stop();
    await floorServer.stop();
  }
}

async function startApi(url: string, nodeArgs: string[] = [], mode: "api" | "floor" = "api"): Promise<BenchProcess & { url: string }> {
  const p = await spawnTs(`${mode} server`, apiServer, [mode, url], { nodeArgs, ready: (line) => line.startsWith('{"url"') });
  return { ...p, url: (JSON.parse(p.readyLine) as { url: string }).url };
}

/** CPU seconds spent while `fn` ran: by the web process (when given), by Postgres, and by this process. */
async function withCpu<T>(webPid: number | null, fn: () => Promise<T>) {
  const web0 = webPid === null ? null : await cpuSecondsOf(webPid);
  const pg0 = await postgresCpuSeconds(backendPid);
  const self0 = process.cpuUsage();
  const result = await fn();
  const self = process.cpuUsage(self0);
  const pg1 = await postgresCpuSeconds(backendPid);
  const web1 = webPid === null ? null : await cpuSecondsOf(webPid);
  return {
    result,
    web: web0 === null || web1 === null ? null : web1 - web0,
    postgres: pg1 - pg0,
    client: (self.user + self.system) / 1e6,
  };
}

/**
 * A load generator's client posting `session.prompt` (non-batched tRPC) on keep-alive sockets,
 * one request at a time each, checking every answer (see HttpPostClient).
 */
function promptClient(baseUrl: string, token: string) {
  const http = new HttpPostClient(baseUrl, { "content-type": "application/json", authorization: `Bearer ${token}` });
  return {
    async prompt(sessionId: string): Promise<void> {
      const answer = await http.post("/api/trpc/session.prompt", JSON.stringify({ sessionId, text: TEXT }));
      if (answer.status !== 200 || !answer.body.includes('"messageId"')) {
        throw new Error(`session.prompt answered ${answer.status}: ${answer.body.slice(0, 300)}`);
      }
    },
    close: () => http.close(),
  };
}

/** Statements one `session.prompt` sends to Postgres (the procedure called in process on a counting pool). */
async function countStatements(url: string, sessions: string[], token: string) {
  const counting = createCountingDb(url, { max: 2 });
  try {
    const tokens = new TokenVerifier(counting);
    const auth = await tokens.verify(token);
    const caller = createCaller({
      db: counting,
      hub: new EventHub(counting),
      profiles: profileRegistry(new Map(Object.entries(builtinProfiles))),
      tokens,
      rateLimiter: new RateLimiter(Number.MAX_SAFE_INTEGER),
      limits: { maxPayloadBytes: 256 * 1024, eventsPageSize: 500, leaseTtlMs: 10_000 },
      auth,
    });
    await caller.session.prompt({ sessionId: sessions[0]!, text: TEXT });
    counting.reset();
    const n = 50;
    for (let i = 0; i < n; i++) await caller.session.prompt({ sessionId: sessions[(i + 1) % sessions.length]!, text: TEXT });
    return {
      perPrompt: counting.total() / n,
      byKind: Object.fromEntries([...counting.counts()].map(([k, v]) => [k, v / n])),
    };
  } finally {
    await counting.close();
  }
}

const { rows, statements, profile } = measured;
const d = (s: Side) => s.loop.latencyMs;
const tables: Table[] = [
  {
    title: "Admission: session.prompt over HTTP vs a raw INSERT + NOTIFY of the same row (closed loop, pool 10)",
    columns: ["concurrency", "raw/s", "handoff/s", "throughput handoff/raw", "raw p50", "handoff p50", "raw p99", "handoff p99", "p99 handoff/raw"],
    rows: rows.map((r) => [
      r.concurrency,
      num(r.raw.loop.throughput, 0),
      num(r.handoff.loop.throughput, 0),
      ratio(r.handoff.loop.throughput, r.raw.loop.throughput),
      d(r.raw).p50,
      d(r.handoff).p50,
      d(r.raw).p99,
      d(r.handoff).p99,
      ratio(d(r.handoff).p99, d(r.raw).p99),
    ]),
    notes: [
      `latencies in ms; ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s each after a warm-up; ${SESSIONS} interactive sessions, round-robin`,
      "targets: throughput handoff/raw ≥ 0.50×, p99 handoff/raw ≤ 2.00×",
    ],
  },
  {
    title: "The HTTP hop's floor: a bare Node HTTP server doing the raw INSERT + NOTIFY, in a web process of its own",
    columns: ["concurrency", "floor/s", "floor/raw", "handoff/floor", "floor p50", "floor p99", "p99 floor/raw", "floor: web CPU ms"],
    rows: rows.map((r) => [
      r.concurrency,
      num(r.floor.loop.throughput, 0),
      ratio(r.floor.loop.throughput, r.raw.loop.throughput),
      ratio(r.handoff.loop.throughput, r.floor.loop.throughput),
      d(r.floor).p50,
      d(r.floor).p99,
      ratio(d(r.floor).p99, d(r.raw).p99),
      num(r.floor.cpuMs.web ?? NaN, 3),
    ]),
    notes: [
      "the same load generator and the same round trip to Postgres as raw, plus what any web process adds: " +
        "the HTTP request and answer crossing two more processes' sockets and event loops",
    ],
  },
  {
    title: "CPU per prompt (ms) and statements per prompt",
    columns: ["concurrency", "raw: postgres", "raw: load generator", "handoff: web", "handoff: postgres", "handoff: load generator"],
    rows: rows.map((r) => [
      r.concurrency,
      num(r.raw.cpuMs.postgres, 3),
      num(r.raw.cpuMs.client, 3),
      num(r.handoff.cpuMs.web ?? NaN, 3),
      num(r.handoff.cpuMs.postgres, 3),
      num(r.handoff.cpuMs.client, 3),
    ]),
    notes: [
      `statements per prompt: raw 1 (one simple-protocol round trip); handoff ${num(statements.perPrompt, 1)} — ` +
        Object.entries(statements.byKind)
          .map(([k, v]) => `${k} ${num(v, 1)}`)
          .join(", "),
      "postgres = the server's processes (/proc: postmaster and its children); web = the API process; load generator = this process (postgres-js for raw; for handoff a wrk-style HTTP/1.1 client on keep-alive sockets, bench/lib/http-post-client.ts)",
    ],
  },
];
if (profile) {
  tables.push({
    title: `Where the web process spends its CPU (main thread at concurrency 16, ${profile.totalMs} ms busy after a 3 s warm-up)`,
    columns: ["package (with the Node internals it called)", "ms", "%"],
    rows: profile.byPackage.map((m) => [m.module, m.ms, m.share]),
    notes: [
      "self time by module: " + profile.byModule.slice(0, 6).map((m) => `${m.module} ${m.share}%`).join(", "),
      "heaviest functions: " + profile.byFunction.slice(0, 6).map((f) => `${f.fn} ${f.share}%`).join("; "),
    ],
  });
}
const targets: Target[] = rows.flatMap((r) => [
  {
    name: `throughput at concurrency ${r.concurrency}`,
    measured: `${ratio(r.handoff.loop.throughput, r.raw.loop.throughput)} of raw (${num(r.handoff.loop.throughput, 0)} vs ${num(r.raw.loop.throughput, 0)}/s)`,
    target: "≥ 0.50× raw",
    met: r.handoff.loop.throughput >= 0.5 * r.raw.loop.throughput,
  },
  {
    name: `p99 at concurrency ${r.concurrency}`,
    measured: `${ratio(d(r.handoff).p99, d(r.raw).p99)} raw (${d(r.handoff).p99} vs ${d(r.raw).p99} ms)`,
    target: "≤ 2.00× raw",
    met: d(r.handoff).p99 <= 2 * d(r.raw).p99,
  },
]);
await report({
  bench: "admission",
  title: "Admission",
  seconds: Math.round((performance.now() - t0) / 1000),
  machine: bench.machine,
  tables,
  targets,
  data: {
    rounds: ROUNDS,
    roundMs: ROUND_MS,
    sessions: SESSIONS,
    rows: rows.map((r) => ({
      concurrency: r.concurrency,
      raw: { ...r.raw, loop: { ...r.raw.loop, samples: undefined } },
      floor: { ...r.floor, loop: { ...r.floor.loop, samples: undefined } },
      handoff: { ...r.handoff, loop: { ...r.handoff.loop, samples: undefined } },
    })),
    statements,
    profile,
  },
});
