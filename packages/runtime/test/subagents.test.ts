import { createSession, enqueue, readEvents } from "@handoff/db";
import { useTestDatabase } from "@handoff/db/testing";
import type { RecordedRequest, Step } from "@handoff/model-sim";
import { describe, expect, it } from "vitest";
import { ownSession } from "../src/index";
import { agentFacts, body, runPrompt, startHarness } from "./harness";

const pg = useTestDatabase();

const task = (args: Record<string, unknown>): Step => ({ toolCalls: [{ name: "task", args }] });
const reply = (value: unknown): Step => ({ toolCalls: [{ name: "reply", args: { value } }] });

/** The tool results the parent's model was sent, in order. */
function toolResultsSent(requests: RecordedRequest[], agentId: string): string[] {
  const mine = requests.filter((r) => r.headers["x-handoff-agent"] === agentId);
  const last = mine[mine.length - 1];
  return last ? body(last).messages.filter((m) => m.role === "tool").map((m) => String(m.content)) : [];
}

describe("subagents (C3)", () => {
  it("gives the parent a child's reply as prose, with the evidence block and the resume hint", async () => {
    const h = await startHarness({
      agents: {
        general: [task({ profile: "explore", prompt: "look" }), reply("parent done")],
        explore: [
          { toolCalls: [{ name: "todo_write", args: { todos: [{ id: "1", content: "look", status: "completed" }] } }] },
          reply({ found: ["a", "b"] }),
        ],
      },
    });
    const run = await runPrompt(pg.current.db, h, { prompt: "go" });
    const [result] = toolResultsSent(run.requests, run.rootAgentId);
    expect(result).toContain('"found": [\n    "a",\n    "b"\n  ]');
    expect(result).toContain("- final message present: true");
    expect(result).toContain("- open todos: 0");
    expect(result).toContain("- verdict: COMPLETE (todo-clean)");
    expect(result).toMatch(/call task with resume: "agt_/);
    const child = run.events.find((e) => e.type === "agent.spawn")!.data.childId as string;
    expect(await agentFacts(pg.current.db, child)).toMatchObject({ status: "done", verdict: "COMPLETE", replyValue: { found: ["a", "b"] } });
  });

  it("tells the parent a child errored after writing text: the error named, the text marked partial", async () => {
    const h = await startHarness({
      agents: {
        general: [task({ profile: "explore", prompt: "look" }), reply("noted")],
        explore: [
          { text: "I looked at half of the files; so far", toolCalls: [{ name: "list_files", args: {} }] },
          { error: { status: 400, message: "context window exceeded" } },
        ],
      },
    });
    const run = await runPrompt(pg.current.db, h, { prompt: "go" });
    const [result] = toolResultsSent(run.requests, run.rootAgentId);
    expect(result).toContain("It stopped with an error before giving a final answer: context window exceeded");
    expect(result).toContain("<partial>\nI looked at half of the files; so far\n</partial>");
    expect(result).toContain("- verdict: INCOMPLETE (stop-abnormal)");
  });

  it("tells the parent a silent child ended without a final answer, never an empty result", async () => {
    const h = await startHarness({
      agents: {
        general: [task({ profile: "explore", prompt: "look" }), reply("noted")],
        explore: [{ text: "" }, { text: "   " }, { text: "" }],
      },
    });
    const run = await runPrompt(pg.current.db, h, { prompt: "go" });
    const [result] = toolResultsSent(run.requests, run.rootAgentId);
    expect(result).toContain("It ended without a final answer (no_reply)");
    expect(result).toContain("It wrote no text.");
    expect(result).toContain("- final message present: false");
  });

  it("delivers a background child's result to the parent's inbox, admitted at its next step boundary", async () => {
    const h = await startHarness({
      agents: {
        general: [
          task({ profile: "explore", prompt: "look", background: true }),
          // The parent is busy in a slow step while the child finishes.
          { toolCalls: [{ name: "list_files", args: {} }], delayMs: 600 },
          reply("parent done"),
        ],
        explore: [reply("child found it")],
      },
    });
    const run = await runPrompt(pg.current.db, h, { prompt: "go" });
    expect(run.root.replyValue).toBe("parent done");
    const [spawnResult] = toolResultsSent(run.requests, run.rootAgentId);
    expect(spawnResult).toMatch(/Started subagent agt_\w+ \(explore\) in the background/);
    const parentRequests = run.requests.filter((r) => r.headers["x-handoff-agent"] === run.rootAgentId);
    const last = body(parentRequests[parentRequests.length - 1]!).messages;
    const delivered = last.find((m) => m.role === "user" && String(m.content).includes("child found it"));
    expect(delivered).toBeDefined();
    const admitted = run.events.filter((e) => e.type === "message.admit" && e.agentId === run.rootAgentId);
    expect(admitted.flatMap((e) => (e.data.messages as { kind: string }[]).map((m) => m.kind))).toEqual(["prompt", "child_result"]);
  });

  it("delivers a background child's result even when the parent's worker dies before admitting it", async () => {
    const { db } = pg.current;
    const h = await startHarness({
      agents: {
        general: [
          task({ profile: "explore", prompt: "look", background: true }),
          { toolCalls: [{ name: "list_files", args: {} }], delayMs: 5000 },
          reply("parent done"),
        ],
        explore: [reply("child found it")],
      },
    });
    const { sessionId, rootAgentId } = await createSession(db, { mode: "headless" });
    const dying = new AbortController();
    const first = (await ownSession(db, sessionId, h.runtime.driver, { signal: dying.signal }))!;
    await enqueue(db, { sessionId, kind: "prompt", payload: { text: "go" } }, { maxPayloadBytes: 1 << 20 });
    const driving = first.driveToIdle();
    await expect
      .poll(async () => (await db.sql`SELECT 1 FROM inbox_messages WHERE session_id = ${sessionId} AND kind = 'child_result'`).length, {
        timeout: 10_000,
      })
      .toBe(1);
    dying.abort(new Error("worker died"));
    await driving.catch(() => {});
    const [queued] = await db.sql`SELECT state FROM inbox_messages WHERE session_id = ${sessionId} AND kind = 'child_result'`;
    expect(queued!.state).toBe("queued");
    await db.sql`UPDATE sessions SET lease_expires_at = now() - interval '1 second' WHERE id = ${sessionId}`;
    const second = (await ownSession(db, sessionId, h.runtime.driver))!;
    await second.driveToIdle();
    await second.release();
    expect(await agentFacts(db, rootAgentId)).toMatchObject({ status: "done", replyValue: "parent done" });
    const [admitted] = await db.sql`SELECT state FROM inbox_messages WHERE session_id = ${sessionId} AND kind = 'child_result'`;
    expect(admitted!.state).toBe("admitted");
    const parentRequests = h.sim.requests().filter((r) => r.headers["x-handoff-agent"] === rootAgentId);
    expect(JSON.stringify(body(parentRequests[parentRequests.length - 1]!).messages)).toContain("child found it");
  });

  it("sends a resumed child its open todos and stop reason, with a fresh step budget", async () => {
    const todos = [
      { id: "1", content: "read the spec", status: "completed" },
      { id: "2", content: "write the summary", status: "pending" },
    ];
    const closed = todos.map((t) => ({ ...t, status: "completed" }));
    const h = await startHarness({
      agents: {
        general: [task({ profile: "explore", prompt: "summarize" }), { text: "The explorer was cut off." }],
        explore: [{ toolCalls: [{ name: "todo_write", args: { todos } }] }, { text: "The spec says", finish: "length" }],
      },
    });
    const { db } = pg.current;
    // Turn 1 of an interactive root: the child is cut by the length limit with an open item.
    const first = await runPrompt(db, h, { prompt: "go", mode: "interactive" });
    const childId = first.events.find((e) => e.type === "agent.spawn")!.data.childId as string;
    expect(await agentFacts(db, childId)).toMatchObject({ status: "failed", failureTag: "max_tokens", openTodoCount: 1 });

    // Turn 2: the root resumes it by id.
    h.sim.setScenario({
      agents: {
        general: [task({ resume: childId }), { text: "Resumed and finished." }],
        explore: [{ toolCalls: [{ name: "todo_write", args: { todos: closed } }] }, reply("summary written")],
      },
    });
    const owner = (await ownSession(db, first.sessionId, h.runtime.driver))!;
    await enqueue(db, { sessionId: first.sessionId, kind: "followup", payload: { text: "resume it" } }, { maxPayloadBytes: 1 << 20 });
    await owner.driveToIdle();
    await owner.release();

    const resumed = h.sim.requests().filter((r) => r.headers["x-handoff-agent"] === childId).at(-2)!;
    const resumeMessage = body(resumed).messages.find((m) => String(m.content).startsWith("[Resume]"))!;
    expect(resumeMessage.role).toBe("user");
    expect(String(resumeMessage.content)).toContain("You stopped earlier with: max_tokens (max_tokens)");
    expect(String(resumeMessage.content)).toContain("- [pending] write the summary (id 2)");
    expect(String(resumeMessage.content)).not.toContain("read the spec");
    // It continued its own history: the first prompt and its cut text are still there.
    expect(JSON.stringify(body(resumed).messages)).toContain("summarize");
    expect(JSON.stringify(body(resumed).messages)).toContain("The spec says");
    expect(await agentFacts(db, childId)).toMatchObject({ status: "done", verdict: "COMPLETE", replyValue: "summary written" });
    const turns = await db.sql<{ modelSteps: number }[]>`
      SELECT model_steps AS "modelSteps" FROM turns WHERE agent_id = ${childId} ORDER BY started_at`;
    expect(turns.map((t) => t.modelSteps)).toEqual([2, 2]);
    const parentLast = h.sim.requests().filter((r) => r.headers["x-handoff-agent"] === first.rootAgentId).at(-1)!;
    expect(JSON.stringify(body(parentLast).messages)).toContain("summary written");
  });

  it("cancels a running child when a headless root replies, and counts its tokens in the run's usage", async () => {
    const h = await startHarness({
      agents: {
        general: [task({ profile: "explore", prompt: "dig", background: true }), { ...reply("done without waiting"), delayMs: 300 }],
        explore: [
          { toolCalls: [{ name: "list_files", args: {} }], usage: { input: 70, output: 7 } },
          { toolCalls: [{ name: "reply", args: { value: "too late" } }], delayMs: 10_000 },
        ],
      },
    });
    const run = await runPrompt(pg.current.db, h, { prompt: "go" });
    expect(run.root).toMatchObject({ status: "done", replyValue: "done without waiting" });
    const childId = run.events.find((e) => e.type === "agent.spawn")!.data.childId as string;
    expect(await agentFacts(pg.current.db, childId)).toMatchObject({
      status: "cancelled",
      stopReason: "cancelled",
      failureTag: "abandoned",
      verdict: "INCOMPLETE",
      inputTokens: 70,
      outputTokens: 7,
    });
    const [usage] = await pg.current.db.sql<{ input: number }[]>`
      SELECT sum(input_tokens)::int AS input FROM agents WHERE session_id = ${run.sessionId}`;
    expect(usage!.input).toBe(run.root.inputTokens + 70);
    const events = await readEvents(pg.current.db.sql, run.sessionId, 0, 10_000);
    expect(events.find((e) => e.type === "agent.end" && e.agentId === childId)?.data).toMatchObject({ failureTag: "abandoned" });
  });

  it("refuses a subagent deeper than the depth limit with an error the model can act on", async () => {
    const h = await startHarness({
      agents: {
        general: [task({ profile: "general", prompt: "recurse" }), reply("top")],
      },
    });
    // Every general agent spawns another general agent: the chain stops at HANDOFF_MAX_DEPTH (3).
    const run = await runPrompt(pg.current.db, h, { prompt: "go" });
    const depths = await pg.current.db.sql<{ depth: number }[]>`SELECT depth FROM agents WHERE session_id = ${run.sessionId} ORDER BY depth`;
    expect(depths.map((d) => d.depth)).toEqual([0, 1, 2, 3]);
    const refused = run.events.find((e) => e.type === "tool-call.end" && e.data.isError);
    expect(String(refused?.data.output)).toContain("subagents may nest 3 deep");
  });
});

describe("subagent limits", () => {
  it("refuses a child beyond HANDOFF_MAX_CHILDREN running children with an error the model can act on", async () => {
    const h = await startHarness(
      {
        agents: {
          general: [
            task({ profile: "explore", prompt: "first", background: true }),
            task({ profile: "explore", prompt: "second", background: true }),
            { ...reply("parent done"), delayMs: 200 },
          ],
          explore: [{ ...reply("child done"), delayMs: 1500 }],
        },
      },
      { env: { HANDOFF_MAX_CHILDREN: "1" } },
    );
    const run = await runPrompt(pg.current.db, h, { prompt: "go" });
    const ends = run.events.filter((e) => e.type === "tool-call.end" && e.data.name === "task");
    expect(ends.map((e) => e.data.isError)).toEqual([false, true]);
    expect(String(ends[1]!.data.output)).toContain("you already have 1 subagents running (limit 1, HANDOFF_MAX_CHILDREN)");
    expect(run.events.filter((e) => e.type === "agent.spawn")).toHaveLength(1);
  });

  it("holds the limit when one step's task calls spawn side by side", async () => {
    const spawn = (prompt: string) => ({ name: "task", args: { profile: "explore", prompt, background: true } });
    const h = await startHarness(
      {
        agents: {
          general: [{ toolCalls: [spawn("one"), spawn("two"), spawn("three")] }, { ...reply("parent done"), delayMs: 200 }],
          explore: [{ ...reply("child done"), delayMs: 1500 }],
        },
      },
      { env: { HANDOFF_MAX_CHILDREN: "2" } },
    );
    const run = await runPrompt(pg.current.db, h, { prompt: "go" });
    const ends = run.events.filter((e) => e.type === "tool-call.end" && e.data.name === "task");
    expect(ends).toHaveLength(3);
    expect(ends.filter((e) => e.data.isError).map((e) => String(e.data.output))).toEqual([
      expect.stringContaining("you already have 2 subagents running (limit 2, HANDOFF_MAX_CHILDREN)"),
    ]);
    expect(run.events.filter((e) => e.type === "agent.spawn")).toHaveLength(2);
  });
});
