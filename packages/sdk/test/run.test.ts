import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createModelSim, type ModelSim } from "@handoff/model-sim";
import { createRuntime, runtimeEnv, type RuntimeHandle } from "@handoff/runtime";
import { startWorker, type RunningWorker } from "@handoff/worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useApi } from "./harness";

const api = useApi();
let sim: ModelSim;
let runtime: RuntimeHandle;
let worker: RunningWorker;
let dataDir: string;

beforeAll(async () => {
  sim = await createModelSim({ scenario: { agents: {} } });
  dataDir = await mkdtemp(path.join(os.tmpdir(), "handoff-sdk-"));
  runtime = await createRuntime(
    runtimeEnv({ HANDOFF_MODEL: "openai-compatible:sim", HANDOFF_BASE_URL: sim.url, HANDOFF_DATA_DIR: dataDir, HANDOFF_AGENTS_DIR: dataDir }),
  );
  worker = await startWorker({ databaseUrl: api.pg.url, concurrency: 4, driver: runtime.driver, logLevel: "silent", pollMs: 200 });
});
afterAll(async () => {
  await worker?.drain();
  await runtime?.close();
  await sim?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("SDK run()", () => {
  it("owns the interval to the next idle: a steering message landing inside it is among its events, and the final response is the last one", async () => {
    sim.setScenario({
      agents: {
        general: [
          { text: "Working on the first plan.", toolCalls: [{ name: "list_files", args: {} }], delayMs: 800 },
          { toolCalls: [{ name: "reply", args: { value: "final answer after steering" } }] },
        ],
      },
    });
    const client = api.client();
    const { sessionId } = await client.createSession({ mode: "headless" });
    const steered = (async () => {
      // Steer once the run's prompt is being worked on.
      for await (const e of client.events(sessionId)) {
        if (e.type === "model-step.start") return client.steer(sessionId, "prefer the short version");
      }
      throw new Error("stream ended");
    })();
    const result = await client.run("summarize the workspace", { sessionId });
    const steer = await steered;

    expect(result.sessionId).toBe(sessionId);
    expect(result.finalResponse).toBe("final answer after steering");
    expect(result.finishReason).toBe("reply");
    const queued = result.events.find((e) => e.type === "message.queue" && e.data.messageId === steer.messageId);
    expect(queued).toBeDefined();
    const admitted = result.events.filter((e) => e.type === "message.admit").flatMap((e) => (e.data.messages as { messageId: string }[]).map((m) => m.messageId));
    expect(admitted).toEqual([result.messageId, steer.messageId]);
    // The interval starts at the prompt's receipt and is contiguous.
    expect(result.events[0]).toMatchObject({ type: "message.queue", data: { messageId: result.messageId } });
    const seqs = result.events.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
    expect(result.events.at(-1)).toMatchObject({ type: "session.status", data: { status: "ended" } });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    // The model saw the steering as a user message at the step boundary.
    const second = sim.requests().filter((r) => r.headers["x-handoff-session"] === sessionId && r.headers["x-handoff-purpose"] !== "housekeeping")[1]!;
    expect(JSON.stringify(second.body)).toContain("prefer the short version");
  });

  it("reports the last committed assistant message when an interactive root answers in text", async () => {
    sim.setScenario({ agents: { general: [{ text: "Hello from the interactive root." }] } });
    const client = api.client();
    const { sessionId } = await client.createSession({ mode: "interactive" });
    const result = await client.run("hi", { sessionId });
    expect(result).toMatchObject({ finalResponse: "Hello from the interactive root.", finishReason: "end_turn" });
    expect(result.events.at(-1)).toMatchObject({ type: "session.status", data: { status: "idle" } });
  });

  it("answers prompt() with only a messageId once the message is durable", async () => {
    const client = api.client();
    const { sessionId } = await client.createSession({ mode: "interactive" });
    const receipt = await client.prompt(sessionId, "just enqueue");
    expect(Object.keys(receipt)).toEqual(["messageId"]);
    const [row] = await api.pg.db.sql`SELECT kind FROM inbox_messages WHERE id = ${receipt.messageId}`;
    expect(row!.kind).toBe("prompt");
  });
});
