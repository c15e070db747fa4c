/**
 * Runtime overhead: the CPU time Handoff's agent runtime spends per model step — persisting
 * the step, its events, the tool call records and the history, fencing every write — over a
 * bare AI SDK `streamText` loop that sends the same requests to the same in-process
 * model-sim and keeps its history in memory. Both run in this process; the sim answers at
 * once; rounds alternate. The tool's own CPU (list_files, timed alone) is taken out: tools
 * are not overhead. Also counts the statements (database round trips) per step.
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
import type { ProfileSummary } from "./lib/cpu-profile";
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
    // Where the difference goes: one more round of each under the profiler.
    const ids = await prepareSessions(db, SESSIONS_PER_ROUND);
    const handoffProfile = await profileWhile(async () => void (await driveSessions(db, pool, runtime, ids)), 60);
    const bareProfile = await profileWhile(async () => void (await bare.round(SESSIONS_PER_ROUND)), 60);
    return { handoffRounds, bareRounds, statements, statementSteps, toolCpuMs, profiles: { handoff: handoffProfile, bare: bareProfile } };
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

const { handoffRounds, bareRounds, statements, statementSteps, toolCpuMs, profiles } = measured;
const sum = (rounds: Round[], k: keyof Round) => rounds.reduce((s, r) => s + r[k], 0);
const steps = sum(handoffRounds, "steps");
const bareSteps = sum(bareRounds, "steps");
const handoffCpu = sum(handoffRounds, "cpuMs") / steps;
const bareCpu = sum(bareRounds, "cpuMs") / bareSteps;
/** The tool's own CPU (run on every step but the last) is not Handoff's overhead. */
const toolPerStep = (toolCpuMs * (STEPS - 1)) / STEPS;
const overhead = handoffCpu - bareCpu - toolPerStep;
const perRound = handoffRounds.map((h, i) => h.cpuMs / h.steps - bareRounds[i]!.cpuMs / bareRounds[i]!.steps);
const statementsPerStep = [...statements.values()].reduce((a, b) => a + b, 0) / statementSteps;

const tables: Table[] = [
  {
    title: "Runtime overhead per model step (model-sim in process, answering at once)",
    columns: ["loop", "steps", "CPU ms/step", "wall ms/step", "statements/step"],
    rows: [
      ["bare AI SDK streamText", bareSteps, num(bareCpu, 3), num(sum(bareRounds, "wallMs") / bareSteps, 2), 0],
      ["Handoff runtime", steps, num(handoffCpu, 3), num(sum(handoffRounds, "wallMs") / steps, 2), num(statementsPerStep, 1)],
      ["list_files itself (excluded)", null, num(toolPerStep, 3), null, null],
      ["Handoff − bare − tool", null, num(overhead, 3), num((sum(handoffRounds, "wallMs") - sum(bareRounds, "wallMs")) / steps, 2), null],
    ],
    notes: [
      `${ROUNDS} alternating rounds of ${SESSIONS_PER_ROUND} headless sessions × ${STEPS} steps (list_files on each but the last, then reply); ` +
        `per-round Handoff − bare ${perRound.map((v) => num(v, 2)).join(", ")} ms; Handoff/bare CPU ${ratio(handoffCpu, bareCpu)}`,
      "CPU is this process's (user + system, every thread): the AI SDK, the sim, postgres-js and the runtime; Postgres's own CPU is not in it",
      "statements by kind per step: " +
        [...statements]
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `${k} ${num(v / statementSteps, 1)}`)
          .join(", "),
    ],
  },
];
tables.push(profileDifference(profiles.handoff, profiles.bare, SESSIONS_PER_ROUND * STEPS));

/** CPU per step by package in a profiled round of each loop, and the difference: where Handoff's overhead goes. */
function profileDifference(handoff: ProfileSummary, bareLoop: ProfileSummary, stepsEach: number): Table {
  const h = new Map(handoff.byPackage.map((p) => [p.module, p.ms / stepsEach]));
  const b = new Map(bareLoop.byPackage.map((p) => [p.module, p.ms / stepsEach]));
  const rows = [...new Set([...h.keys(), ...b.keys()])]
    .map((m) => ({ m, h: h.get(m) ?? 0, b: b.get(m) ?? 0 }))
    .sort((x, y) => y.h - y.b - (x.h - x.b))
    .slice(0, 14);
  return {
    title: "Where the overhead goes: CPU ms per step by package, one profiled round of each (Node internals charged to their caller)",
    columns: ["package", "Handoff", "bare", "difference"],
    rows: [
      ...rows.map((r) => [r.m, num(r.h, 3), num(r.b, 3), num(r.h - r.b, 3)]),
      ["total sampled", num(handoff.totalMs / stepsEach, 3), num(bareLoop.totalMs / stepsEach, 3), num((handoff.totalMs - bareLoop.totalMs) / stepsEach, 3)],
    ],
    notes: ["heaviest functions in the Handoff round: " + handoff.byFunction.slice(0, 6).map((f) => `${f.fn} ${f.share}%`).join("; ")],
  };
}

const targets: Target[] = [
  {
    name: "Handoff CPU per model step over a bare AI SDK loop",
    measured: `${num(overhead, 3)} ms (${num(handoffCpu, 3)} − ${num(bareCpu, 3)} − tool ${num(toolPerStep, 3)} ms; ${num(statementsPerStep, 1)} statements/step)`,
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
    toolCpuMsPerCall: toolCpuMs,
    statementsPerStep,
    statementsByKind: Object.fromEntries([...statements].map(([k, v]) => [k, v / statementSteps])),
    profiles,
  },
});
