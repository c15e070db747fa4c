/**
 * Runtime overhead: the CPU time Handoff's agent runtime spends per model step over a bare AI
 * SDK `streamText` loop that sends the same requests to the same in-process model-sim and
 * keeps its history in memory. Both run in this process; the sim answers at once; rounds
 * alternate.
 *
 * The target is the measure: Handoff's CPU per step with persistence, events and
 * tools excluded. It is taken from CPU profiles of alternating rounds: a sample whose stack
 * holds postgres-js or @handoff/db (every statement, event and fenced write, with the socket
 * writes they make) is persistence; one under the tool (list_files) is the tool's; the rest —
 * the runtime's loop, its request building, validation, the AI SDK, the sim, GC — is compared
 * with the bare loop's whole. The all-in figure (process CPU time, persistence included) and
 * the statements (database round trips) per step are reported beside it.
 *
 * `npm run bench -- runtime-overhead`; writes bench/results/runtime-overhead.json.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createDb, createSession, enqueue, type Db } from "@handoff/db";
import { createModelSim, type Scenario } from "@handoff/model-sim";
import { builtinProfiles, builtinTools, createRuntime, ownSession, runtimeEnv, type RuntimeHandle } from "@handoff/runtime";
import { jsonSchema, streamText, tool, type ModelMessage, type ToolSet } from "ai";
import { startBenchServer } from "./lib/bench-database";
import { createCountingDb } from "./lib/counting-db";
import type { ProfileSummary, StackClass } from "./lib/cpu-profile";
import { profileWhile } from "./lib/in-process-profile";
import { num, ratio, report, type Table, type Target } from "./lib/report";

/** Model steps per session: list_files on every step but the last, which replies. */
const STEPS = 20;
const SESSIONS_PER_ROUND = 4;
const ROUNDS = 8;
const PROMPT = "List the workspace again and again, then reply.";
const LIST_RESULT = "(empty directory)";

const scenario: Scenario = {
  agents: {
    general: [
      ...Array.from({ length: STEPS - 1 }, () => ({ toolCalls: [{ name: "list_files", args: { path: "." } }], usage: { input: 400, output: 20 } })),
      { toolCalls: [{ name: "reply", args: { value: "done" } }], usage: { input: 400, output: 20 } },
    ],
  },
};

interface Round {
  steps: number;
  cpuMs: number;
  wallMs: number;
}

/** Where a profiled sample's CPU belongs, by the code on its stack (the first class that matches). */
const STACK_CLASSES: StackClass[] = [
  { name: "tool", matches: (url) => url.endsWith("/tools/list-files.ts") || url.endsWith("/tools/list-files.js") },
  { name: "persistence", matches: (url) => url.includes("/node_modules/postgres/") || url.includes("/packages/db/") },
];

interface ProfiledRound {
  steps: number;
  profile: ProfileSummary;
}

const t0 = performance.now();
const bench = await startBenchServer();
let measured: Awaited<ReturnType<typeof measure>>;
try {
  measured = await bench.withDatabase((database) => measure(database.db, database.url));
} finally {
  await bench.stop();
}

async function measure(db: Db, url: string) {
  const sim = await createModelSim({ scenario });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "handoff-bench-rt-"));
  await mkdir(path.join(dataDir, "agents"));
  const runtime = await createRuntime(
    runtimeEnv({
      HANDOFF_MODEL: "openai-compatible:sim",
      HANDOFF_BASE_URL: sim.url,
      HANDOFF_DATA_DIR: dataDir,
      HANDOFF_AGENTS_DIR: path.join(dataDir, "agents"),
    }),
  );
  // The timed rounds run on a plain pool; statements are counted in rounds of their own, since the
  // counting hook (postgres-js's `debug`) captures a stack trace per query and would be charged to Handoff.
  const pool = createDb(url, { max: 10, applicationName: "bench-runtime" });
  const counting = createCountingDb(url, { max: 10 });
  const bare = bareLoop(sim.url);
  try {
    const handoffRounds: Round[] = [];
    const bareRounds: Round[] = [];
    let statements = new Map<string, number>();
    let statementSteps = 0;
    // Warm-up (JIT, connections, the cancel LISTEN), then alternate.
    await handoffRound(db, pool, runtime, 2);
    await bare.round(2);
    for (let r = 0; r < ROUNDS; r++) {
      handoffRounds.push(await handoffRound(db, pool, runtime, SESSIONS_PER_ROUND));
      bareRounds.push(await bare.round(SESSIONS_PER_ROUND));
    }
    counting.reset();
    statementSteps = (await handoffRound(db, counting, runtime, SESSIONS_PER_ROUND)).steps;
    statements = counting.counts();
    const toolCpuMs = await toolCpu(dataDir);
    // The split the target is measured on: alternating rounds of each under the profiler.
    const profiled: { handoff: ProfiledRound[]; bare: ProfiledRound[] } = { handoff: [], bare: [] };
    for (let r = 0; r < ROUNDS; r++) {
      const ids = await prepareSessions(db, SESSIONS_PER_ROUND);
      let steps = 0;
      const handoffProfile = await profileWhile(async () => void (steps = (await driveSessions(db, pool, runtime, ids)).steps), 80, STACK_CLASSES);
      profiled.handoff.push({ steps, profile: handoffProfile });
      const bareProfile = await profileWhile(async () => void (steps = (await bare.round(SESSIONS_PER_ROUND)).steps), 80, STACK_CLASSES);
      profiled.bare.push({ steps, profile: bareProfile });
    }
    return { handoffRounds, bareRounds, statements, statementSteps, toolCpuMs, profiled };
  } finally {
    await counting.close();
    await pool.close();
    await runtime.close();
    await sim.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Drives `sessions` headless sessions one after the other in this process, as a worker would (ownSession). */
async function handoffRound(db: Db, pool: Db, runtime: RuntimeHandle, sessions: number): Promise<Round> {
  return driveSessions(db, pool, runtime, await prepareSessions(db, sessions));
}

/** Sessions and their prompts exist before the clock starts: admission is the admission benchmark's. */
async function prepareSessions(db: Db, sessions: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < sessions; i++) {
    // A title up front: no housekeeping request (it is not a model step).
    const { sessionId } = await createSession(db, { mode: "headless", title: "bench", config: { maxSteps: STEPS + 5 } });
    await enqueue(db, { sessionId, kind: "prompt", payload: { text: PROMPT } }, { maxPayloadBytes: 1 << 20 });
    ids.push(sessionId);
  }
  return ids;
}

/** `pool`: the connections the runtime writes through (the worker's pool). */
async function driveSessions(db: Db, pool: Db, runtime: RuntimeHandle, ids: string[]): Promise<Round> {
  const sessions = ids.length;
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (const sessionId of ids) {
    const owner = await ownSession(pool, sessionId, runtime.driver, { ttlMs: 60_000 });
    if (!owner) throw new Error(`could not claim ${sessionId}`);
    try {
      await owner.driveToIdle();
    } finally {
      await owner.release();
    }
  }
  const used = process.cpuUsage(cpu);
  const wallMs = performance.now() - wall;
  const [done] = await db.sql<{ steps: number; replied: number }[]>`
    SELECT coalesce(sum(model_steps), 0)::int AS steps, count(*) FILTER (WHERE stop_reason = 'reply')::int AS replied
    FROM agents WHERE session_id = ANY(${ids}::text[])`;
  if (done!.replied !== sessions || done!.steps !== sessions * STEPS) {
    throw new Error(`expected ${sessions} replies after ${sessions * STEPS} steps, got ${done!.replied} after ${done!.steps}`);
  }
  return { steps: done!.steps, cpuMs: (used.user + used.system) / 1000, wallMs };
}

/** CPU per `list_files` call on its own (an empty workspace, as in the sessions): the tool's work, not Handoff's overhead. */
async function toolCpu(dataDir: string): Promise<number> {
  const workspaceDir = path.join(dataDir, "tool-only");
  await mkdir(workspaceDir);
  // list_files reads only these two fields of its context.
  const ctx = { workspaceDir, maxOutputBytes: 32 * 1024 } as Parameters<NonNullable<(typeof builtinTools)["list_files"]>["run"]>[1];
  const listFiles = builtinTools.list_files!;
  for (let i = 0; i < 200; i++) await listFiles.run({ path: "." }, ctx);
  const n = 2_000;
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) await listFiles.run({ path: "." }, ctx);
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000 / n;
}

/** The same conversation with the AI SDK alone: the same model, system prompt, tools and headers; history in memory. */
function bareLoop(baseURL: string) {
  const model = createOpenAICompatible({ name: "handoff", baseURL, includeUsage: true })("sim");
  const profile = builtinProfiles.general!;
  const defs = [...profile.tools.map((name) => builtinTools[name]!), builtinTools.reply!];
  let n = 0;
  const session = async (): Promise<number> => {
    const id = `bare_${n++}`;
    const headers = { "x-handoff-session": `ses_${id}`, "x-handoff-agent": `agt_${id}`, "x-handoff-profile": "general" };
    const messages: ModelMessage[] = [{ role: "user", content: PROMPT }];
    for (let step = 1; step <= STEPS + 5; step++) {
      // Tools are built per request, as the runtime's callModel does.
      const tools: ToolSet = Object.fromEntries(
        defs.map((t) => [t.id, tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema) })]),
      );
      const result = streamText({ model, system: profile.systemPrompt, messages, tools, toolChoice: "auto", headers, maxRetries: 0 });
      let text = "";
      const calls: { toolCallId: string; toolName: string; input: unknown }[] = [];
      for await (const part of result.fullStream) {
        if (part.type === "text-delta") text += part.text;
        else if (part.type === "tool-call") calls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
        else if (part.type === "error") throw part.error;
      }
      messages.push({
        role: "assistant",
        content: [...(text ? [{ type: "text" as const, text }] : []), ...calls.map((c) => ({ type: "tool-call" as const, ...c }))],
      });
      if (calls.some((c) => c.toolName === "reply")) return step;
      for (const c of calls) {
        messages.push({
          role: "tool",
          content: [{ type: "tool-result", toolCallId: c.toolCallId, toolName: c.toolName, output: { type: "text", value: LIST_RESULT } }],
        });
      }
    }
    throw new Error("the bare loop never got a reply");
  };
  return {
    async round(sessions: number): Promise<Round> {
      const cpu = process.cpuUsage();
      const wall = performance.now();
      let steps = 0;
      for (let i = 0; i < sessions; i++) steps += await session();
      const used = process.cpuUsage(cpu);
      return { steps, cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - wall };
    },
  };
}

const { handoffRounds, bareRounds, statements, statementSteps, toolCpuMs, profiled } = measured;
const sum = (rounds: Round[], k: keyof Round) => rounds.reduce((s, r) => s + r[k], 0);
const steps = sum(handoffRounds, "steps");
const bareSteps = sum(bareRounds, "steps");
const handoffCpu = sum(handoffRounds, "cpuMs") / steps;
const bareCpu = sum(bareRounds, "cpuMs") / bareSteps;
/** The tool's own CPU (run on every step but the last) is not Handoff's overhead. */
const toolPerStep = (toolCpuMs * (STEPS - 1)) / STEPS;
const allIn = handoffCpu - bareCpu - toolPerStep;
const perRound = handoffRounds.map((h, i) => h.cpuMs / h.steps - bareRounds[i]!.cpuMs / bareRounds[i]!.steps);
const statementsPerStep = [...statements.values()].reduce((a, b) => a + b, 0) / statementSteps;

/** Sampled main-thread CPU per step of profiled rounds, by stack class; `total` is their sum (unrounded, unlike totalMs). */
function split(rounds: ProfiledRound[]) {
  const steps = rounds.reduce((s, r) => s + r.steps, 0);
  const of = (name: string) => rounds.reduce((s, r) => s + (r.profile.byStack?.[name] ?? 0), 0) / steps;
  const [persistence, tool, rest] = [of("persistence"), of("tool"), of("rest")];
  return { steps, total: persistence + tool + rest, persistence, tool, rest };
}
const h = split(profiled.handoff);
const b = split(profiled.bare);
const overhead = h.rest - b.total;
const perProfiledRound = profiled.handoff.map((hr, i) => split([hr]).rest - split([profiled.bare[i]!]).total);

const tables: Table[] = [
  {
    title: "Runtime overhead per model step, persistence, events and tools excluded (main-thread CPU, sampled; model-sim in process, answering at once)",
    columns: ["loop", "steps", "CPU ms/step", "persistence + events", "tool", "the rest"],
    rows: [
      ["bare AI SDK streamText", b.steps, num(b.total, 3), num(b.persistence, 3), num(b.tool, 3), num(b.rest, 3)],
      ["Handoff runtime", h.steps, num(h.total, 3), num(h.persistence, 3), num(h.tool, 3), num(h.rest, 3)],
      ["Handoff − bare", null, num(h.total - b.total, 3), num(h.persistence - b.persistence, 3), num(h.tool - b.tool, 3), num(overhead, 3)],
    ],
    notes: [
      `${ROUNDS} alternating profiled rounds of ${SESSIONS_PER_ROUND} headless sessions × ${STEPS} steps (list_files on each but the last, then reply); ` +
        `per-round Handoff rest − bare ${perProfiledRound.map((v) => num(v, 2)).join(", ")} ms`,
      "persistence + events: samples with postgres-js or @handoff/db on the stack (statements, events, fenced writes, their socket writes); " +
        "tool: samples under list_files; the rest: the runtime's loop, request building and validation, the AI SDK, the sim, GC",
    ],
  },
  {
    title: "All in: process CPU per model step, persistence and events included",
    columns: ["loop", "steps", "CPU ms/step", "wall ms/step", "statements/step"],
    rows: [
      ["bare AI SDK streamText", bareSteps, num(bareCpu, 3), num(sum(bareRounds, "wallMs") / bareSteps, 2), 0],
      ["Handoff runtime", steps, num(handoffCpu, 3), num(sum(handoffRounds, "wallMs") / steps, 2), num(statementsPerStep, 1)],
      ["list_files itself (excluded)", null, num(toolPerStep, 3), null, null],
      ["Handoff − bare − tool", null, num(allIn, 3), num((sum(handoffRounds, "wallMs") - sum(bareRounds, "wallMs")) / steps, 2), null],
    ],
    notes: [
      `${ROUNDS} alternating unprofiled rounds; per-round Handoff − bare ${perRound.map((v) => num(v, 2)).join(", ")} ms; Handoff/bare CPU ${ratio(handoffCpu, bareCpu)}`,
      "CPU is this process's (user + system, every thread): the AI SDK, the sim, postgres-js and the runtime; Postgres's own CPU is not in it",
      "statements (database round trips) by kind per step: " +
        [...statements]
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `${k} ${num(v / statementSteps, 1)}`)
          .join(", "),
    ],
  },
];
tables.push(profileDifference(profiled.handoff, profiled.bare));

/** CPU per step by package over the profiled rounds of each loop, and the difference: where Handoff's overhead goes. */
function profileDifference(handoff: ProfiledRound[], bareLoop: ProfiledRound[]): Table {
  const perStep = (rounds: ProfiledRound[]) => {
    const { steps, total } = split(rounds);
    const by = new Map<string, number>();
    for (const r of rounds) for (const p of r.profile.byPackage) by.set(p.module, (by.get(p.module) ?? 0) + p.ms / steps);
    return { by, total };
  };
  const hp = perStep(handoff);
  const bp = perStep(bareLoop);
  const rows = [...new Set([...hp.by.keys(), ...bp.by.keys()])]
    .map((m) => ({ m, h: hp.by.get(m) ?? 0, b: bp.by.get(m) ?? 0 }))
    .sort((x, y) => y.h - y.b - (x.h - x.b))
    .slice(0, 14);
  const functions = new Map<string, number>();
  for (const r of handoff) for (const f of r.profile.byFunction) functions.set(f.fn, (functions.get(f.fn) ?? 0) + f.ms);
  const busy = handoff.reduce((s, r) => s + r.profile.totalMs, 0);
  return {
    title: "Where the difference goes: CPU ms per step by package, profiled rounds (Node internals charged to their caller)",
    columns: ["package", "Handoff", "bare", "difference"],
    rows: [
      ...rows.map((r) => [r.m, num(r.h, 3), num(r.b, 3), num(r.h - r.b, 3)]),
      ["total sampled", num(hp.total, 3), num(bp.total, 3), num(hp.total - bp.total, 3)],
    ],
    notes: [
      "heaviest functions in the Handoff rounds: " +
        [...functions]
          .sort((x, y) => y[1] - x[1])
          .slice(0, 6)
          .map(([fn, ms]) => `${fn} ${num((100 * ms) / busy, 1)}%`)
          .join("; "),
    ],
  };
}

const targets: Target[] = [
  {
    name: "Handoff CPU per model step over a bare AI SDK loop, persistence, events and tools excluded",
    measured: `${num(overhead, 3)} ms (rest ${num(h.rest, 3)} − bare ${num(b.total, 3)} ms); all in ${num(allIn, 3)} ms with ${num(statementsPerStep, 1)} statements/step`,
    target: "≤ 1 ms",
    met: overhead <= 1,
  },
];
await report({
  bench: "runtime-overhead",
  title: "Runtime overhead",
  seconds: Math.round((performance.now() - t0) / 1000),
  machine: bench.machine,
  tables,
  targets,
  data: {
    stepsPerSession: STEPS,
    handoffRounds,
    bareRounds,
    overheadMsPerStep: overhead,
    allInMsPerStep: allIn,
    profiledSplit: { handoff: h, bare: b },
    toolCpuMsPerCall: toolCpuMs,
    statementsPerStep,
    statementsByKind: Object.fromEntries([...statements].map(([k, v]) => [k, v / statementSteps])),
  },
});
