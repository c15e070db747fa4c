import path from "node:path";
import type { Db } from "@handoff/db";
import { useTestDatabase, waitFor } from "@handoff/db/testing";
import type { ModelSim } from "@handoff/model-sim";
import { describe, expect, it } from "vitest";
import { auditRuns, toolStarts } from "./lib/audit";
import { makeFifo } from "./lib/fifo";
import { expectSurvived } from "./lib/results";
import { holdLocks, waitForLockWaits } from "./lib/row-lock";
import { appendStep, headlessRun, waitForRest, type HeadlessRun } from "./lib/runs";
import { profileFile, startStage, type Stage } from "./lib/stage";

const pg = useTestDatabase();

/** Sessions in flight on the worker that is killed: each is caught in the same phase. */
const RUNS = 3;

const reply = (value: string) => ({ name: "reply", args: { value } });
/** A `grep` of the workspace's named pipe: in flight until the test feeds the pipe. */
const grepPipe = { name: "grep", args: { pattern: "needle", path: "pipe" } };

/** Model requests of one agent that reached model-sim (the title request is housekeeping, not a step). */
function stepRequests(sim: ModelSim, agentId: string): number {
  return sim.requests().filter((r) => r.headers["x-handoff-agent"] === agentId && r.headers["x-handoff-purpose"] !== "housekeeping")
    .length;
}

async function headlessRuns(db: Db, stage: Stage): Promise<HeadlessRun[]> {
  return Promise.all(Array.from({ length: RUNS }, () => headlessRun(db, stage)));
}

/** The tool calls of each run's root, as `name:status` in order, e.g. `edit_file:done grep:running`. */
async function rootCalls(db: Db, runs: HeadlessRun[]): Promise<string[]> {
  const rows = await db.sql<{ agentId: string; calls: string }[]>`
    SELECT agent_id AS "agentId", string_agg(name || ':' || status, ' ' ORDER BY started_at) AS calls
    FROM tool_calls WHERE agent_id = ANY(${runs.map((r) => r.rootAgentId)}::text[]) GROUP BY agent_id`;
  return runs.map((r) => rows.find((row) => row.agentId === r.rootAgentId)?.calls ?? "");
}

/** Takes the killed worker's sessions over with a second worker, lets them finish, and audits them. */
async function finishOnSecondWorker(db: Db, stage: Stage, runs: HeadlessRun[], stops: Record<string, string>) {
  const second = stage.worker({ name: "second worker" });
  await waitForRest(
    db,
    runs.map((r) => r.sessionId),
    [second],
  );
  expect(await second.stop()).toBe(0);
  return auditRuns(
    db,
    runs.map((r) => ({ sessionId: r.sessionId, stops })),
  );
}

describe("a worker SIGKILLed", () => {
  it("before its admission commits: the messages stay queued and the next worker admits each once", async () => {
    const { db } = pg.current;
    const stage = await startStage({
      databaseUrl: pg.current.url,
      scenario: { agents: { general: [{ toolCalls: [appendStep("step 1")] }, { toolCalls: [reply("done")] }] } },
    });
    const runs = await headlessRuns(db, stage);
    const messages = await Promise.all(runs.map((r) => r.prompt()));
    // An admission marks its messages admitted, opens the turn and writes the history, then
    // sets the agent running: holding the agents' rows stops each there, uncommitted.
    const lock = await holdLocks(db, (tx) => tx`SELECT 1 FROM agents WHERE id = ANY(${runs.map((r) => r.rootAgentId)}::text[]) FOR NO KEY UPDATE`);
    const first = stage.worker({ name: "first worker" });
    const backends = await waitForLockWaits(db, "%UPDATE agents SET status = 'running'%", RUNS);
    await first.kill();
    await lock.release();
    // The dead worker's backends finish their statements, find no client and roll back.
    await waitFor("the killed worker's transactions to end", async () => {
      return (await db.sql`SELECT 1 FROM pg_stat_activity WHERE pid = ANY(${backends}::int[])`).length === 0;
    });
    const states = await db.sql<{ state: string }[]>`SELECT state FROM inbox_messages WHERE id = ANY(${messages}::text[])`;
    expect(states.map((m) => m.state)).toEqual(Array(RUNS).fill("queued"));
    expect(await db.sql`SELECT 1 FROM turns WHERE session_id = ANY(${runs.map((r) => r.sessionId)}::text[])`).toHaveLength(0);

    const audit = await finishOnSecondWorker(db, stage, runs, { general: "reply" });
    for (const run of runs) {
      expect(await run.appended("step 1")).toBe(1);
      expect(toolStarts(audit, run.sessionId, "edit_file")).toBe(1);
    }
    expectSurvived("worker SIGKILL before its admission commits", 1, audit);
  });

  it("during a model step: the step is abandoned and redone, recorded tool calls are not run again", async () => {
    const { db } = pg.current;
    const stage = await startStage({
      databaseUrl: pg.current.url,
      scenario: {
        agents: {
          general: [
            { toolCalls: [appendStep("step 1")] },
            // The request in flight when the worker dies: it never answers.
            { toolCalls: [reply("the dead worker never sees this")], delayMs: 60_000 },
            { toolCalls: [reply("done")] },
          ],
        },
      },
    });
    const runs = await headlessRuns(db, stage);
    const first = stage.worker({ name: "first worker" });
    await Promise.all(runs.map((r) => r.prompt()));
    await waitFor("every run's second model step in flight", async () => {
      const [row] = await db.sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM model_steps
        WHERE agent_id = ANY(${runs.map((r) => r.rootAgentId)}::text[]) AND number = 2 AND status = 'running'`;
      return row!.n === RUNS && runs.every((r) => stepRequests(stage.sim, r.rootAgentId) === 2);
    });
    await first.kill();

    const audit = await finishOnSecondWorker(db, stage, runs, { general: "reply" });
    for (const run of runs) {
      const steps = await db.sql<{ status: string }[]>`
        SELECT status FROM model_steps WHERE agent_id = ${run.rootAgentId} ORDER BY started_at`;
      expect(steps.map((s) => s.status)).toEqual(["settled", "abandoned", "settled"]);
      const [root] = await db.sql`SELECT reply_value FROM agents WHERE id = ${run.rootAgentId}`;
      expect(root!.reply_value).toBe("done");
      expect(await run.appended("step 1")).toBe(1);
      expect(toolStarts(audit, run.sessionId, "edit_file")).toBe(1);
    }
    expectSurvived("worker SIGKILL during a model step", 1, audit);
  });

  it("during a tool call: the call in flight runs again, the one recorded before it does not", async () => {
    const { db } = pg.current;
    const stage = await startStage({
      databaseUrl: pg.current.url,
      scenario: { agents: { general: [{ toolCalls: [appendStep("before"), grepPipe] }, { toolCalls: [reply("done")] }] } },
    });
    const runs = await headlessRuns(db, stage);
    const pipes = runs.map((r) => makeFifo(path.join(r.workspace, "pipe")));
    const first = stage.worker({ name: "first worker" });
    await Promise.all(runs.map((r) => r.prompt()));
    await waitFor("every run's grep call in flight", async () =>
      (await rootCalls(db, runs)).every((calls) => calls === "edit_file:done grep:running"),
    );
    await first.kill();

    const fed = pipes.map((p) => p.feed("a needle in the pipe\n"));
    const audit = await finishOnSecondWorker(db, stage, runs, { general: "reply" });
    await Promise.all(fed);
    for (const run of runs) {
      expect(await run.appended("before")).toBe(1);
      expect(toolStarts(audit, run.sessionId, "edit_file")).toBe(1);
      // The grep had no result when its worker died: it ran again, and its one result is the second run's.
      expect(toolStarts(audit, run.sessionId, "grep")).toBe(2);
      const [grep] = await db.sql<{ result: string }[]>`SELECT result FROM tool_calls WHERE agent_id = ${run.rootAgentId} AND name = 'grep'`;
      expect(grep!.result).toBe("pipe:1: a needle in the pipe");
    }
    expect(audit.rerunsBeforeRecord).toBe(RUNS);
    expectSurvived("worker SIGKILL during a tool call", 1, audit);
  });

  it("during a tool call that runs a subagent: the call finds its child again, and the child ends once", async () => {
    const { db } = pg.current;
    const stage = await startStage({
      databaseUrl: pg.current.url,
      scenario: {
        agents: {
          general: [{ toolCalls: [{ name: "task", args: { profile: "child", prompt: "look around" } }] }, { toolCalls: [reply("done")] }],
          child: [
            { toolCalls: [appendStep("child step")] },
            { toolCalls: [reply("the dead worker never sees this")], delayMs: 60_000 },
            { toolCalls: [reply("found it")] },
          ],
        },
      },
      profiles: { child: profileFile("child") },
    });
    const runs = await headlessRuns(db, stage);
    const first = stage.worker({ name: "first worker" });
    await Promise.all(runs.map((r) => r.prompt()));
    const children = await waitFor("every child's second step in flight, under its parent's task call", async () => {
      const rows = await db.sql<{ id: string; parentId: string }[]>`
        SELECT a.id, a.parent_id AS "parentId" FROM agents a
        JOIN model_steps m ON m.agent_id = a.id AND m.number = 2 AND m.status = 'running'
        JOIN tool_calls t ON t.agent_id = a.parent_id AND t.name = 'task' AND t.status = 'running'
        WHERE a.parent_id = ANY(${runs.map((r) => r.rootAgentId)}::text[])`;
      return rows.length === RUNS && rows.every((r) => stepRequests(stage.sim, r.id) === 2) ? rows : null;
    });
    await first.kill();

    const audit = await finishOnSecondWorker(db, stage, runs, { general: "reply", child: "reply" });
    for (const run of runs) {
      const agents = await db.sql<{ id: string; replyValue: unknown }[]>`
        SELECT id, reply_value AS "replyValue" FROM agents WHERE session_id = ${run.sessionId} ORDER BY created_at`;
      expect(agents).toEqual([
        { id: run.rootAgentId, replyValue: "done" },
        { id: children.find((c) => c.parentId === run.rootAgentId)!.id, replyValue: "found it" },
      ]);
      expect(await run.appended("child step")).toBe(1);
      // The task call had no result when its worker died: it ran again and found the same child.
      expect(toolStarts(audit, run.sessionId, "task")).toBe(2);
      const lastParentRequest = stage.sim.requests().filter((r) => r.headers["x-handoff-agent"] === run.rootAgentId).at(-1)!;
      expect(JSON.stringify(lastParentRequest.body)).toContain("found it");
    }
    expect(audit.rerunsBeforeRecord).toBe(RUNS);
    expectSurvived("worker SIGKILL during a tool call running a subagent", 1, audit);
  });

  it("after a reply, before the agent's end: the recorded reply is not run again and ends the agent", async () => {
    const { db } = pg.current;
    const stage = await startStage({
      databaseUrl: pg.current.url,
      // A reply ends the agent once its tool batch has finished: the grep after it holds the
      // agent between the reply's recorded result and its end.
      scenario: { agents: { general: [{ toolCalls: [appendStep("before")] }, { toolCalls: [reply("done"), grepPipe] }] } },
    });
    const runs = await headlessRuns(db, stage);
    const pipes = runs.map((r) => makeFifo(path.join(r.workspace, "pipe")));
    const first = stage.worker({ name: "first worker" });
    await Promise.all(runs.map((r) => r.prompt()));
    await waitFor("every run's reply recorded, with its agent not ended", async () =>
      (await rootCalls(db, runs)).every((calls) => calls === "edit_file:done reply:done grep:running"),
    );
    await first.kill();
    const between = await db.sql`SELECT status, ended_at FROM agents WHERE id = ANY(${runs.map((r) => r.rootAgentId)}::text[])`;
    expect(between).toEqual(Array(RUNS).fill({ status: "running", ended_at: null }));

    const fed = pipes.map((p) => p.feed("needle\n"));
    const audit = await finishOnSecondWorker(db, stage, runs, { general: "reply" });
    await Promise.all(fed);
    for (const run of runs) {
      const [root] = await db.sql`SELECT status, reply_value FROM agents WHERE id = ${run.rootAgentId}`;
      expect(root).toMatchObject({ status: "done", reply_value: "done" });
      expect(toolStarts(audit, run.sessionId, "reply")).toBe(1);
      expect(await run.appended("before")).toBe(1);
      expect(audit.events.get(run.sessionId)!.filter((e) => e.type === "agent.reply")).toHaveLength(1);
    }
    expectSurvived("worker SIGKILL after a reply, before the agent's end", 1, audit);
  });
});
