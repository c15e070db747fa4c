/**
 * Fan-out: time from an event's commit to its arrival at SSE clients watching the session,
 * with 1, 100 and 1,000 subscribers (SDK `events()` streams against the API in a web process
 * of its own). Baseline in the same run: a bare relay — one LISTEN connection writing each
 * notification straight to every open SSE response, no database read, no tRPC — reached
 * by the same `EventSource` implementation. Then a CPU profile of the web process at 100
 * subscribers, in a run of its own (the profiler slows what it samples).
 *
 * One event at a time, committed by this process with `appendEvents` (the runtime's path);
 * the next is sent once every subscriber has the previous one.
 *
 * `npm run bench -- fan-out [--subscribers=1,100,1000]`; writes bench/results/fan-out.json.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { appendEvents, createSession, createToken, type Db } from "@handoff/db";
import { Handoff } from "@handoff/sdk";
import { EventSource } from "eventsource";
import { distribution, type Distribution } from "./pool-percentiles";
import { startBenchServer } from "./lib/bench-database";
import { summarizeMainThreadProfile, type ProfileSummary } from "./lib/cpu-profile";
import { cpuSecondsOf, spawnTs, type BenchProcess } from "./lib/processes";
import { num, ratio, report, type Table, type Target } from "./lib/report";

const subscribersArg = process.argv.find((a) => a.startsWith("--subscribers="));
const SUBSCRIBERS = subscribersArg ? subscribersArg.slice("--subscribers=".length).split(",").map(Number) : [1, 100, 1_000];
/** The web process is profiled at the target's subscriber count (else at the largest one run). */
const PROFILED = SUBSCRIBERS.includes(100) ? 100 : Math.max(...SUBSCRIBERS);
/** Events sent per subscriber count (fewer for more subscribers: each one is that many deliveries). */
const EVENTS: Record<number, number> = { 1: 200, 100: 60, 1_000: 15 };
const eventsFor = (subscribers: number) => EVENTS[subscribers] ?? Math.max(10, Math.round(6_000 / subscribers));
const WARMUP_EVENTS = 3;
const ARRIVAL_TIMEOUT_MS = 20_000;
const apiServer = fileURLToPath(new URL("./lib/api-server.ts", import.meta.url));

/** relay: the physical limit; sse: Handoff's API read by plain EventSource clients (as the relay's are); handoff: through the SDK. */
type Kind = "relay" | "sse" | "handoff";

interface Run {
  subscribers: number;
  kind: Kind;
  events: number;
  /** Commit to arrival, every (event, subscriber) pair. */
  latencyMs: Distribution;
  /** Commit to the last subscriber's arrival, per event. */
  lastArrivalMs: Distribution;
  /** Arrivals not seen within the timeout. */
  missing: number;
  /** The server process's CPU per event, in ms. */
  serverCpuMsPerEvent: number;
}

/** Arrival times of each expected seq, resolved once `n` subscribers have it. */
class Arrivals {
  private readonly waiting = new Map<number, { times: number[]; n: number; done: () => void }>();

  expect(seq: number, n: number): { times: number[]; all: Promise<void> } {
    const times: number[] = [];
    const all = new Promise<void>((done) => this.waiting.set(seq, { times, n, done }));
    return { times, all };
  }

  arrive(seq: number): void {
    const w = this.waiting.get(seq);
    if (!w) return;
    w.times.push(performance.now());
    if (w.times.length >= w.n) {
      this.waiting.delete(seq);
      w.done();
    }
  }

  forget(seq: number): void {
    this.waiting.delete(seq);
  }
}

const t0 = performance.now();
const bench = await startBenchServer();
let runs: Run[];
let profile: ProfileSummary | null = null;
try {
  ({ runs, profile } = await bench.withDatabase((database) => measure(database.db, database.url)));
} finally {
  await bench.stop();
}

async function measure(db: Db, url: string): Promise<{ runs: Run[]; profile: ProfileSummary | null }> {
  const { token } = await createToken(db, { role: "viewer", workspaceId: "default" });
  const { sessionId } = await createSession(db, { mode: "interactive" });
  const session = { db, url, token, sessionId, lastSeq: 1 }; // seq 1: session.create
  const results: Run[] = [];
  for (const subscribers of SUBSCRIBERS) {
    for (const kind of ["relay", "sse", "handoff"] as const) results.push(await runOnce(session, kind, subscribers));
  }
  // Where the web process's time goes at the target's subscriber count.
  const profileDir = await mkdtemp(path.join(os.tmpdir(), "handoff-bench-prof-"));
  try {
    let fromUs = 0;
    await runOnce(session, "sse", PROFILED, {
      nodeArgs: ["--cpu-prof", "--cpu-prof-dir", profileDir],
      onWarm: () => void (fromUs = Number(process.hrtime.bigint() / 1000n)),
    });
    return { runs: results, profile: await summarizeMainThreadProfile(profileDir, 14, fromUs) };
  } finally {
    await rm(profileDir, { recursive: true, force: true });
  }
}

interface BenchSession {
  db: Db;
  url: string;
  token: string;
  sessionId: string;
  /** The session's last committed seq; every run appends after it. */
  lastSeq: number;
}

/** One server, `subscribers` streams on the session, warm-up events, then the measured ones. */
async function runOnce(
  session: BenchSession,
  kind: Kind,
  subscribers: number,
  opts: { nodeArgs?: string[]; onWarm?: () => void } = {},
): Promise<Run> {
  const { db, sessionId } = session;
  const server = await startServer(kind, session.url, opts.nodeArgs);
  const arrivals = new Arrivals();
  const subs =
    kind === "relay"
      ? relaySubscribers(server.url, subscribers, arrivals)
      : kind === "sse"
        ? sseSubscribers(server.url, session.token, sessionId, session.lastSeq, subscribers, arrivals)
        : handoffSubscribers(server.url, session.token, sessionId, session.lastSeq, subscribers, arrivals);
  try {
    // Everyone connected: the relay counts its clients; a Handoff stream replays what it missed.
    if (kind === "relay") await waitForRelayClients(server.url, subscribers);
    const send = async (measured: boolean) => {
      const seq = ++session.lastSeq;
      const expected = arrivals.expect(seq, subscribers);
      await db.sql.begin((tx) => appendEvents(tx, sessionId, [{ type: "bench.tick", data: { seq } }]));
      const committedAt = performance.now();
      const timedOut = await Promise.race([
        expected.all.then(() => false),
        new Promise<boolean>((r) => setTimeout(() => r(true), ARRIVAL_TIMEOUT_MS).unref()),
      ]);
      arrivals.forget(seq);
      if (!measured) {
        if (timedOut) throw new Error(`${kind} × ${subscribers}: warm-up event ${seq} reached ${expected.times.length} subscriber(s)`);
        return null;
      }
      return { latencies: expected.times.map((t) => Math.max(0, t - committedAt)), missing: subscribers - expected.times.length };
    };
    for (let i = 0; i < WARMUP_EVENTS; i++) await send(false);
    opts.onWarm?.();
    const cpuBefore = (await cpuSecondsOf(server.pid)) ?? NaN;
    const latencies: number[] = [];
    const last: number[] = [];
    let missing = 0;
    const n = eventsFor(subscribers);
    for (let i = 0; i < n; i++) {
      const r = (await send(true))!;
      latencies.push(...r.latencies);
      last.push(Math.max(...r.latencies));
      missing += r.missing;
      await new Promise((r) => setTimeout(r, 5));
    }
    const cpuAfter = (await cpuSecondsOf(server.pid)) ?? NaN;
    const run: Run = {
      subscribers,
      kind,
      events: n,
      latencyMs: distribution(latencies),
      lastArrivalMs: distribution(last),
      missing,
      serverCpuMsPerEvent: ((cpuAfter - cpuBefore) * 1000) / n,
    };
    const profiled = opts.nodeArgs ? " (profiled)" : "";
    console.log(`${kind} × ${subscribers}${profiled}: p50 ${run.latencyMs.p50} p99 ${run.latencyMs.p99} ms, missing ${missing}, web CPU ${num(run.serverCpuMsPerEvent, 1)} ms/event`);
    return run;
  } finally {
    await subs.close();
    await server.stop();
  }
}

async function startServer(kind: Kind, url: string, nodeArgs?: string[]): Promise<BenchProcess & { url: string }> {
  const p = await spawnTs(`${kind} server`, apiServer, [kind === "relay" ? "relay" : "api", url], { nodeArgs, ready: (l) => l.startsWith('{"url"') });
  return { ...p, url: (JSON.parse(p.readyLine) as { url: string }).url };
}

function relaySubscribers(url: string, n: number, arrivals: Arrivals) {
  const sources = Array.from({ length: n }, () => {
    const es = new EventSource(`${url}/events`);
    es.onmessage = (m) => {
      const payload = (JSON.parse(m.data) as { payload: string }).payload;
      arrivals.arrive(Number(payload.slice(payload.lastIndexOf(":") + 1)));
    };
    return es;
  });
  return { close: async () => sources.forEach((es) => es.close()) };
}

/**
 * `session.events` read as what it is on the wire — server-sent events, the event's seq as the
 * SSE id — by the same EventSource the relay's clients use, with no client library on top: the
 * server's fan-out, measured as the relay's is.
 */
function sseSubscribers(url: string, token: string, sessionId: string, afterSeq: number, n: number, arrivals: Arrivals) {
  const query = new URLSearchParams({
    input: JSON.stringify({ sessionId, lastEventId: String(afterSeq) }),
    connectionParams: JSON.stringify({ token }),
  });
  const sources = Array.from({ length: n }, () => {
    const es = new EventSource(`${url}/api/trpc/session.events?${query}`);
    es.onmessage = (m) => arrivals.arrive(Number(m.lastEventId));
    es.addEventListener("serialized-error", (m) => {
      throw new Error(`session.events refused: ${(m as MessageEvent).data}`);
    });
    return es;
  });
  return { close: async () => sources.forEach((es) => es.close()) };
}

function handoffSubscribers(url: string, token: string, sessionId: string, afterSeq: number, n: number, arrivals: Arrivals) {
  const client = new Handoff({ url, token, EventSource });
  const aborts = Array.from({ length: n }, () => new AbortController());
  const loops = aborts.map(async (abort) => {
    try {
      for await (const e of client.events(sessionId, { lastEventId: afterSeq, signal: abort.signal })) arrivals.arrive(e.seq);
    } catch (e) {
      if (!abort.signal.aborted) throw e;
    }
  });
  return {
    close: async () => {
      for (const a of aborts) a.abort();
      await Promise.all(loops);
    },
  };
}

async function waitForRelayClients(url: string, n: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const count = Number(await (await fetch(`${url}/clients`)).text());
    if (count >= n) return;
    if (Date.now() > deadline) throw new Error(`only ${count} of ${n} relay clients connected`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const byKey = (kind: Kind, n: number) => runs.find((r) => r.kind === kind && r.subscribers === n)!;
const tables: Table[] = [
  {
    title: "Fan-out: commit → SSE arrival (ms) — a bare LISTEN→SSE relay, Handoff's API read by the same EventSource clients, and through the SDK",
    columns: [
      "subscribers",
      "events",
      "relay p50",
      "relay p99",
      "handoff p50",
      "handoff p99",
      "p99 handoff/relay",
      "handoff last p99",
      "SDK p50",
      "SDK p99",
      "missing",
      "web CPU ms/event",
    ],
    rows: SUBSCRIBERS.map((n) => {
      const relay = byKey("relay", n);
      const sse = byKey("sse", n);
      const sdk = byKey("handoff", n);
      return [
        n,
        sse.events,
        relay.latencyMs.p50,
        relay.latencyMs.p99,
        sse.latencyMs.p50,
        sse.latencyMs.p99,
        ratio(sse.latencyMs.p99, relay.latencyMs.p99),
        sse.lastArrivalMs.p99,
        sdk.latencyMs.p50,
        sdk.latencyMs.p99,
        relay.missing + sse.missing + sdk.missing,
        num(sse.serverCpuMsPerEvent, 1),
      ];
    }),
    notes: [
      "all subscribers watch one session; p50/p99 over every (event, subscriber) arrival; 'last' = until the last subscriber has it",
      "handoff = session.events over SSE (tRPC's wire format) read by plain EventSource clients, as the relay's are; " +
        "SDK = the same stream through `Handoff.events()` (the SDK's own SSE reader on the same EventSource)",
      "web CPU = the server process's CPU per event, Handoff's API (the relay's: " +
        SUBSCRIBERS.map((n) => `${num(byKey("relay", n).serverCpuMsPerEvent, 1)}`).join(", ") +
        " ms at " +
        SUBSCRIBERS.join(", ") +
        ")",
      "subscribers and the event writer share this process (and the machine's 2 cores) with the server and Postgres",
    ],
  },
];
if (profile) {
  tables.push({
    title: `Where the web process spends its CPU (main thread, ${PROFILED} subscribers, ${eventsFor(PROFILED)} events: ${profile.totalMs} ms busy)`,
    columns: ["package (with the Node internals it called)", "ms", "%"],
    rows: profile.byPackage.map((m) => [m.module, m.ms, m.share]),
    notes: [
      "a run of its own under the profiler, after the warm-up events",
      "self time by module: " + profile.byModule.slice(0, 6).map((m) => `${m.module} ${m.share}%`).join(", "),
      "heaviest functions: " + profile.byFunction.slice(0, 8).map((f) => `${f.fn} ${f.share}%`).join("; "),
    ],
  });
}
const targets: Target[] = [];
if (SUBSCRIBERS.includes(100)) {
  const at100 = byKey("sse", 100);
  targets.push({
    name: "p99 commit → arrival at 100 SSE clients",
    measured: `${at100.latencyMs.p99} ms (relay ${byKey("relay", 100).latencyMs.p99} ms; through the SDK ${byKey("handoff", 100).latencyMs.p99} ms)`,
    target: "≤ 25 ms",
    met: at100.latencyMs.p99 <= 25 && at100.missing === 0,
  });
}
await report({
  bench: "fan-out",
  title: "Fan-out",
  seconds: Math.round((performance.now() - t0) / 1000),
  machine: bench.machine,
  tables,
  targets,
  data: { runs, profile },
});
