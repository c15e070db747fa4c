import { spawn, type ChildProcessByStdio } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { EventHub, RateLimiter, serveApi, TokenVerifier, type ServedApi } from "@handoff/api";
import { createToken } from "@handoff/db";
import { useTestDatabase } from "@handoff/db/testing";
import { createModelSim, type ModelSim } from "@handoff/model-sim";
import { createRuntime, runtimeEnv, type RuntimeHandle } from "@handoff/runtime";
import { startWorker, type RunningWorker } from "@handoff/worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rootDir } from "../src/paths";

const pg = useTestDatabase();
let dataDir: string;
let sim: ModelSim;
let runtime: RuntimeHandle;
let served: ServedApi;
let worker: RunningWorker;
let child: ChildProcessByStdio<Writable, Readable, Readable>;
let exited: Promise<number | null>;
let stderr = "";
let connection: acp.ClientConnection;
const updates: acp.SessionUpdate[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "handoff-acp-url-"));
  sim = await createModelSim({ scenario: { agents: {} } });
  const db = pg.current.db;
  runtime = await createRuntime(runtimeEnv({ ...process.env, HANDOFF_DATA_DIR: dataDir }));
  served = await serveApi({
    db,
    hub: new EventHub(db),
    profiles: runtime.runtime.profiles,
    tokens: new TokenVerifier(db),
    rateLimiter: new RateLimiter(100_000),
    limits: { maxPayloadBytes: 256 * 1024, eventsPageSize: 100, leaseTtlMs: 10_000 },
  });
  worker = await startWorker({ databaseUrl: pg.current.url, concurrency: 2, driver: runtime.driver, pollMs: 500, logLevel: "silent" });
  const { token } = await createToken(db, { role: "operator", workspaceId: "default" });
  child = spawn(
    process.execPath,
    [path.join(rootDir, "packages/cli/bin/handoff.js"), "acp", "--url", served.url, "--model", "openai-compatible:sim", "--base-url", sim.url],
    {
      cwd: rootDir,
      // No database for the bridge: with --url it is only a client of the service.
      env: { ...process.env, HANDOFF_TOKEN: token, DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", HANDOFF_DATA_DIR: dataDir },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  child.stderr.on("data", (d) => (stderr += d));
  connection = acp
    .client({ name: "acp-url-test" })
    .onNotification(acp.methods.client.session.update, ({ params }) => void updates.push(params.update))
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
  await connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
});

afterAll(async () => {
  connection?.close();
  child?.stdin.end();
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("timeout"), 20_000))]);
  if (code === "timeout") child.kill("SIGKILL");
  await worker?.drain();
  await served?.close();
  await runtime?.close();
  await sim?.close();
  await rm(dataDir, { recursive: true, force: true });
  expect(code, stderr).toBe(0);
});

describe("handoff acp --url", () => {
  it("bridges to a running service through the SDK: the service's workers run the session", async () => {
    sim.setScenario({ agents: { general: [{ text: "Looking.", toolCalls: [{ name: "list_files", args: { path: "." } }] }, { text: "Nothing here." }] } });
    const { sessionId } = await connection.agent.request(acp.methods.agent.session.new, { cwd: dataDir, mcpServers: [] });
    const answer = await connection.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "what is here?" }] });
    expect(answer.stopReason).toBe("end_turn");
    expect(updates.map((u) => u.sessionUpdate)).toEqual(["agent_message_chunk", "tool_call", "tool_call_update", "agent_message_chunk"]);
    // The session is the service's, and its only worker ran it: the bridge started none.
    const workers = await pg.current.db.sql<{ id: string }[]>`SELECT id FROM workers`;
    expect(workers.map((w) => w.id)).toEqual([worker.id]);
    const [session] = await pg.current.db.sql<{ status: string }[]>`SELECT status FROM sessions WHERE id = ${sessionId}`;
    expect(session?.status).toBe("idle");
  });

  it("cancels the running turn on session/cancel", async () => {
    sim.setScenario({ agents: { general: [{ text: "Too slow.", delayMs: 30_000 }] } });
    const { sessionId } = await connection.agent.request(acp.methods.agent.session.new, { cwd: dataDir, mcpServers: [] });
    const answer = connection.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "take your time" }] });
    const deadline = Date.now() + 15_000;
    while (!sim.requests().some((r) => r.headers["x-handoff-session"] === sessionId && r.headers["x-handoff-purpose"] !== "housekeeping")) {
      if (Date.now() > deadline) throw new Error(`the model was never asked\n${stderr}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    await connection.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await answer).stopReason).toBe("cancelled");
  });
});
