import { spawn, type ChildProcessByStdio } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { cancelMessage, enqueue } from "@handoff/db";
import { useTestDatabase } from "@handoff/db/testing";
import { createModelSim, type ModelSim, type Scenario } from "@handoff/model-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rootDir } from "../src/paths";

const pg = useTestDatabase();
const MAX_STEPS = 4;

let sim: ModelSim;
let dataDir: string;
let child: ChildProcessByStdio<Writable, Readable, Readable>;
let exited: Promise<number | null>;
let stderr = "";
let connection: acp.ClientConnection;
let agent: acp.ClientContext;
/** Everything the client saw, in arrival order: session updates and prompt answers. */
const timeline: ({ sessionId: string; update: acp.SessionUpdate } | { sessionId: string; answer: string })[] = [];

beforeAll(async () => {
  sim = await createModelSim({ scenario: { agents: {} } });
  dataDir = await mkdtemp(path.join(os.tmpdir(), "handoff-acp-"));
  child = spawn(
    process.execPath,
    [
      path.join(rootDir, "packages/cli/bin/handoff.js"),
      "acp",
      ...["--model", "openai-compatible:sim", "--base-url", sim.url, "--max-steps", String(MAX_STEPS)],
    ],
    {
      cwd: rootDir,
      env: { ...process.env, DATABASE_URL: pg.current.url, HANDOFF_DATA_DIR: dataDir },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  child.stderr.on("data", (d) => (stderr += d));
  connection = acp
    .client({ name: "acp-test" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      timeline.push({ sessionId: params.sessionId, update: params.update });
    })
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
  agent = connection.agent;
  const init = await agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  expect(init.protocolVersion).toBe(1);
  expect(init.agentInfo?.name).toBe("handoff");
});

afterAll(async () => {
  connection?.close();
  child?.stdin.end();
  // Closing stdin is how an editor says goodbye: the bridge drains its worker and exits 0.
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("timeout"), 20_000))]);
  if (code === "timeout") child.kill("SIGKILL");
  await sim?.close();
  await rm(dataDir, { recursive: true, force: true });
  expect(code, stderr).toBe(0);
});

async function newSession(scenario: Scenario): Promise<string> {
  sim.setScenario(scenario);
  const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd: dataDir, mcpServers: [] });
  return sessionId;
}

function prompt(sessionId: string, text: string): Promise<acp.PromptResponse> {
  return agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] }).then((r) => {
    timeline.push({ sessionId, answer: r.stopReason });
    return r;
  });
}

/** The session's updates as short labels, the chunks of one message joined. */
function updatesOf(sessionId: string): string[] {
  const labels: string[] = [];
  let message: string | null | undefined = null;
  for (const entry of timeline) {
    if (entry.sessionId !== sessionId) continue;
    if ("answer" in entry) {
      labels.push(`answer ${entry.answer}`);
      continue;
    }
    const u = entry.update;
    const last = labels.length - 1;
    if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") {
      if (labels[last]?.startsWith("text ") && u.messageId === message) labels[last] += u.content.text;
      else labels.push(`text ${u.content.text}`);
      message = u.messageId;
    } else if (u.sessionUpdate === "tool_call") labels.push(`tool ${u.title} ${u.status}`);
    else if (u.sessionUpdate === "tool_call_update") labels.push(`tool ${u.status}`);
    else if (u.sessionUpdate === "plan") labels.push(`plan ${u.entries.map((e) => `${e.content}:${e.status}`).join(", ")}`);
    else labels.push(u.sessionUpdate);
  }
  return labels;
}

async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${stderr}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Resolves once the model has been asked a (non-housekeeping) question for this session. */
function modelAsked(sessionId: string, times = 1) {
  return waitFor(`model request ${times} of ${sessionId}`, () =>
    sim.requests().filter((r) => r.headers["x-handoff-session"] === sessionId && r.headers["x-handoff-purpose"] !== "housekeeping")
      .length >= times
      ? true
      : undefined,
  );
}

async function messageRow(sessionId: string, text: string) {
  const [row] = await pg.current.db.sql<{ id: string; state: string; admittedTurnId: string | null; queuedAt: Date }[]>`
    SELECT id, state, admitted_turn_id AS "admittedTurnId", queued_at AS "queuedAt"
    FROM inbox_messages WHERE session_id = ${sessionId} AND payload->>'text' = ${text}`;
  return row;
}

async function turnRow(turnId: string) {
  const [row] = await pg.current.db.sql<{ stopReason: string; endedAt: Date }[]>`
    SELECT stop_reason AS "stopReason", ended_at AS "endedAt" FROM turns WHERE id = ${turnId}`;
  return row!;
}

describe("handoff acp", () => {
  it("streams message chunks, tool calls and the todo ledger as a plan, in order, then ends the turn", async () => {
    const todos = (a: string, b: string) => ({
      todos: [
        { id: "1", content: "Look around", status: a },
        { id: "2", content: "Report", status: b },
      ],
    });
    const sessionId = await newSession({
      agents: {
        general: [
          { text: "Planning the work.", toolCalls: [{ name: "todo_write", args: todos("in_progress", "pending") }] },
          {
            toolCalls: [
              { name: "list_files", args: { path: "." } },
              { name: "todo_write", args: todos("completed", "completed") },
            ],
          },
          { text: "All done." },
        ],
      },
    });
    expect(sessionId).toMatch(/^ses_/);
    const answer = await prompt(sessionId, "look around and report");
    expect(answer.stopReason).toBe("end_turn");
    expect(updatesOf(sessionId)).toEqual([
      "text Planning the work.",
      "tool todo_write in_progress",
      "plan Look around:in_progress, Report:pending",
      "tool completed",
      "tool list_files . in_progress",
      "tool completed",
      "tool todo_write in_progress",
      "plan Look around:completed, Report:completed",
      "tool completed",
      "text All done.",
      "answer end_turn",
    ]);
    // A tool call and its update share one id, unique in the session.
    const calls = timeline.flatMap((e) => ("update" in e && e.sessionId === sessionId && e.update.sessionUpdate === "tool_call" ? [e.update.toolCallId] : []));
    expect(new Set(calls).size).toBe(3);
    // The flags set the root agent: its model, base URL and step cap.
    const [root] = await pg.current.db.sql<{ model: string; config: unknown }[]>`
      SELECT a.model, a.config FROM agents a JOIN sessions s ON s.root_agent_id = a.id WHERE s.id = ${sessionId}`;
    expect(root).toEqual({ model: "openai-compatible:sim", config: { baseUrl: sim.url, maxSteps: MAX_STEPS } });
  });

  it("answers max_tokens when the admitting turn hit the token limit", async () => {
    const sessionId = await newSession({ agents: { general: [{ text: "This answer is cut", finish: "length" }] } });
    expect((await prompt(sessionId, "write a lot")).stopReason).toBe("max_tokens");
    expect(updatesOf(sessionId)).toEqual(["text This answer is cut", "answer max_tokens"]);
  });

  it("answers max_turn_requests when the step cap ended the turn", async () => {
    const sessionId = await newSession({
      agents: {
        general: [{ text: "Still looking.", toolCalls: [{ name: "list_files", args: { path: "." }, ifOffered: true }], repeatForever: true }],
      },
    });
    expect((await prompt(sessionId, "keep looking")).stopReason).toBe("max_turn_requests");
    await modelAsked(sessionId, MAX_STEPS);
    expect(sim.requests().filter((r) => r.headers["x-handoff-session"] === sessionId && r.headers["x-handoff-purpose"] !== "housekeeping")).toHaveLength(MAX_STEPS);
  });

  it("answers refusal when the model's content filter stopped it", async () => {
    const sessionId = await newSession({ agents: { general: [{ text: "", finish: "content_filter" }] } });
    expect((await prompt(sessionId, "something objectionable")).stopReason).toBe("refusal");
  });

  it("rejects the prompt with a JSON-RPC error on a model error, and the session takes the next prompt", async () => {
    const sessionId = await newSession({
      agents: { general: [{ error: { status: 400, message: "the sim refuses this request" } }, { text: "Recovered." }] },
    });
    const error = await prompt(sessionId, "fail please").then(
      () => null,
      (e: unknown) => e as { code: number; message: string; data: { stopReason: string; detail: string } },
    );
    expect(error).toMatchObject({ code: -32603, data: { stopReason: "error" } });
    expect(error!.message).toMatch(/^model error: .*refuses this request/);
    expect(await prompt(sessionId, "try again")).toMatchObject({ stopReason: "end_turn" });
    expect(updatesOf(sessionId)).toEqual(["text Recovered.", "answer end_turn"]);
  });

  it("serves two overlapping prompts one after the other, each answered by its own turn", async () => {
    const sessionId = await newSession({ agents: { general: [{ text: "First answer.", delayMs: 800 }, { text: "Second answer." }] } });
    const [one, two] = await Promise.all([prompt(sessionId, "prompt one"), prompt(sessionId, "prompt two")]);
    expect([one.stopReason, two.stopReason]).toEqual(["end_turn", "end_turn"]);
    expect(updatesOf(sessionId)).toEqual(["text First answer.", "answer end_turn", "text Second answer.", "answer end_turn"]);
    // The second waited in the bridge, not in the inbox: sent after the first turn ended, admitted by a turn of its own.
    const first = (await messageRow(sessionId, "prompt one"))!;
    const second = (await messageRow(sessionId, "prompt two"))!;
    expect(second.admittedTurnId).not.toBe(first.admittedTurnId);
    expect(second.queuedAt.getTime()).toBeGreaterThanOrEqual((await turnRow(first.admittedTurnId!)).endedAt.getTime());
    expect(one._meta).toMatchObject({ handoff: { turnId: first.admittedTurnId } });
    expect(two._meta).toMatchObject({ handoff: { turnId: second.admittedTurnId } });
  });

  it("answers cancelled on session/cancel: the running turn is aborted and a waiting prompt never sent", async () => {
    const sessionId = await newSession({ agents: { general: [{ text: "Too slow.", delayMs: 30_000 }, { text: "After the cancel." }] } });
    const started = Date.now();
    const running = prompt(sessionId, "a long job");
    const waiting = prompt(sessionId, "queued behind it");
    await modelAsked(sessionId);
    await agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await running).stopReason).toBe("cancelled");
    expect((await waiting).stopReason).toBe("cancelled");
    expect(Date.now() - started).toBeLessThan(10_000);
    const aborted = (await messageRow(sessionId, "a long job"))!;
    expect(await turnRow(aborted.admittedTurnId!)).toMatchObject({ stopReason: "cancelled" });
    expect(await messageRow(sessionId, "queued behind it")).toBeUndefined();
    // The session goes on: the next prompt gets the next scripted answer.
    expect((await prompt(sessionId, "and now?")).stopReason).toBe("end_turn");
    expect(updatesOf(sessionId)).toEqual(["answer cancelled", "answer cancelled", "text After the cancel.", "answer end_turn"]);
  });

  it("answers cancelled when its message is cancelled before admission, and a late end does not settle the next prompt", async () => {
    const sessionId = await newSession({
      agents: { general: [{ text: "Someone else's work.", delayMs: 4_000, finish: "length" }, { text: "Mine." }] },
    });
    // Another client's prompt keeps the root busy; ours queue behind its turn in the inbox.
    await enqueue(pg.current.db, { sessionId, kind: "prompt", payload: { text: "someone else's prompt" } }, { maxPayloadBytes: 1 << 20 });
    await modelAsked(sessionId);
    const withdrawn = prompt(sessionId, "to be withdrawn");
    const queued = await waitFor("the prompt in the inbox", () => messageRow(sessionId, "to be withdrawn"));
    expect(queued.state).toBe("queued");
    await cancelMessage(pg.current.db, { sessionId, messageId: queued.id });
    expect(await withdrawn).toMatchObject({ stopReason: "cancelled", _meta: { handoff: { admitted: false } } });
    // Sent while the other turn still runs: that turn's late end (max_tokens) is not this prompt's.
    const mine = await prompt(sessionId, "my own prompt");
    expect(mine.stopReason).toBe("end_turn");
    const foreign = (await messageRow(sessionId, "someone else's prompt"))!;
    const own = (await messageRow(sessionId, "my own prompt"))!;
    const foreignTurn = await turnRow(foreign.admittedTurnId!);
    expect(foreignTurn.stopReason).toBe("max_tokens");
    expect(own.queuedAt.getTime()).toBeLessThan(foreignTurn.endedAt.getTime());
    expect(updatesOf(sessionId).at(-2)).toBe("text Mine.");
  });

  it("refuses a prompt to an unknown session", async () => {
    const error = await prompt("ses_00000000000000000000000000", "hello?").then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: -32002 });
  });
});
