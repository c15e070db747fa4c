import { useTestDatabase } from "@handoff/db/testing";
import type { Step } from "@handoff/model-sim";
import { describe, expect, it } from "vitest";
import { auditRuns, toolStarts } from "./lib/audit";
import { expectSurvived } from "./lib/results";
import { appendStep, headlessRun, waitForRest, type HeadlessRun } from "./lib/runs";
import { profileFile, startStage } from "./lib/stage";

const pg = useTestDatabase();

const reply = (value: string): Step => ({ toolCalls: [{ name: "reply", args: { value } }] });
const append = (label: string): Step => ({ toolCalls: [appendStep(label)] });
const rateLimited = (n: number, retryAfterSeconds = 0.2): Step[] => Array.from({ length: n }, () => ({ error: { status: 429, retryAfterSeconds } }));

const TIMEOUT_MS = 2000;
const MAX_RETRIES = 4;

/**
 * One script per fault, each played by its own profile: every request of an agent takes the
 * next step, so a fault step answers one attempt and the retry gets the step after it.
 */
const faults = {
  storm: {
    fault: "model 429 storm, within the retry budget",
    steps: [...rateLimited(4), append("storm"), ...rateLimited(3), reply("ok")],
    injected: 7,
    stop: "reply",
  },
  "storm-out": {
    fault: "model 429 storm past the retry budget",
    steps: rateLimited(MAX_RETRIES + 1, 0),
    injected: MAX_RETRIES + 1,
    // The step fails once its retries are spent: the agent ends with the error, not a made-up answer.
    stop: "error",
  },
  errors: {
    fault: "model HTTP 500 and 503",
    steps: [{ error: { status: 500 } }, { error: { status: 500 } }, append("errors"), { error: { status: 503 } }, reply("ok")],
    injected: 3,
    stop: "reply",
  },
  stall: {
    fault: "model stall past HANDOFF_MODEL_TIMEOUT_MS",
    steps: [
      { ...reply("too late"), delayMs: 5 * TIMEOUT_MS },
      append("stall"),
      { text: "thinking", delayMs: 5 * TIMEOUT_MS },
      reply("ok"),
    ],
    injected: 2,
    stop: "reply",
  },
  malformed: {
    fault: "malformed tool-call JSON",
    steps: [{ ...append("malformed"), malformedToolCallJson: true }, append("fixed"), reply("ok")],
    injected: 1,
    stop: "reply",
  },
  reset: {
    fault: "connection reset mid-stream",
    steps: [
      { text: "Let me look at the workspace first", ...append("cut"), resetAfterChunks: 3 },
      append("after reset"),
      { ...reply("cut reply"), resetAfterChunks: 2 },
      reply("ok"),
    ],
    injected: 2,
    stop: "reply",
  },
} satisfies Record<string, { fault: string; steps: Step[]; injected: number; stop: string }>;

type Fault = keyof typeof faults;

/** Sessions per fault, all on one worker at once. */
const RUNS = 3;

describe("model faults on a real worker process", () => {
  it("are retried or reported truthfully, and nothing is lost or done twice", { timeout: 90_000 }, async () => {
    const { db } = pg.current;
    const names = Object.keys(faults) as Fault[];
    const stage = await startStage({
      databaseUrl: pg.current.url,
      scenario: { agents: Object.fromEntries(names.map((n) => [n, faults[n].steps])) },
      profiles: Object.fromEntries(names.map((n) => [n, profileFile(n)])),
      env: { HANDOFF_MODEL_TIMEOUT_MS: String(TIMEOUT_MS), HANDOFF_MODEL_MAX_RETRIES: String(MAX_RETRIES) },
    });
    const worker = stage.worker({ concurrency: names.length * RUNS });
    const runs = new Map<Fault, HeadlessRun[]>();
    for (const name of names) {
      runs.set(name, await Promise.all(Array.from({ length: RUNS }, () => headlessRun(db, stage, name))));
    }
    const all = [...runs.values()].flat();
    await Promise.all(all.map((r) => r.prompt()));
    await waitForRest(
      db,
      all.map((r) => r.sessionId),
      [worker],
    );
    expect(await worker.stop()).toBe(0);

    /** Model steps (answered requests) and retries of one run's root. */
    const counted = async (run: HeadlessRun) => {
      const [row] = await db.sql<{ steps: number; retries: number }[]>`
        SELECT a.model_steps AS steps, (SELECT coalesce(sum(s.retries), 0)::int FROM model_steps s WHERE s.agent_id = a.id) AS retries
        FROM agents a WHERE a.id = ${run.rootAgentId}`;
      return row!;
    };
    const each = async (name: Fault, check: (run: HeadlessRun) => Promise<void>) => {
      for (const run of runs.get(name)!) await check(run);
    };

    // A retry is the same step: only answered requests count.
    await each("storm", async (run) => {
      expect(await counted(run)).toEqual({ steps: 2, retries: 7 });
      expect(await run.appended("storm")).toBe(1);
    });
    await each("storm-out", async (run) => {
      const [root] = await db.sql`SELECT status, failure_tag, stop_detail FROM agents WHERE id = ${run.rootAgentId}`;
      expect(root).toMatchObject({ status: "failed", failure_tag: "error" });
      expect(String(root!.stop_detail)).toMatch(/429|rate/i);
      expect(await counted(run)).toEqual({ steps: 0, retries: MAX_RETRIES });
    });
    await each("errors", async (run) => expect(await counted(run)).toEqual({ steps: 2, retries: 3 }));
    await each("stall", async (run) => {
      expect(await counted(run)).toEqual({ steps: 2, retries: 2 });
      expect(await run.appended("stall")).toBe(1);
    });
    // The malformed call is answered with an error the model can act on, and not executed.
    await each("malformed", async (run) => {
      expect(await run.appended("malformed")).toBe(0);
      expect(await run.appended("fixed")).toBe(1);
      const [bad] = await db.sql<{ isError: boolean; result: string }[]>`
        SELECT is_error AS "isError", result FROM tool_calls WHERE agent_id = ${run.rootAgentId} ORDER BY started_at LIMIT 1`;
      expect(bad).toMatchObject({ isError: true, result: expect.stringContaining("could not be used") });
    });
    // A response cut by a reset is not half-used: its tool call never ran, its retry's did.
    await each("reset", async (run) => {
      expect(await counted(run)).toEqual({ steps: 2, retries: 2 });
      expect(await run.appended("cut")).toBe(0);
      expect(await run.appended("after reset")).toBe(1);
      const [root] = await db.sql`SELECT reply_value FROM agents WHERE id = ${run.rootAgentId}`;
      expect(root!.reply_value).toBe("ok");
    });

    for (const name of names) {
      const audit = await auditRuns(
        db,
        runs.get(name)!.map((r) => ({ sessionId: r.sessionId, stops: { "*": faults[name].stop } })),
      );
      if (name === "reset") for (const run of runs.get(name)!) expect(toolStarts(audit, run.sessionId, "edit_file")).toBe(1);
      expectSurvived(faults[name].fault, faults[name].injected * RUNS, audit);
    }
  });
});
