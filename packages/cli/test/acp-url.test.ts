import { spawn, type ChildProcessByStdio } from "node:child_process";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rootDir } from "../src/paths";
import { useRunningService } from "./lib/running-service";

const service = useRunningService("acp-url");
let child: ChildProcessByStdio<Writable, Readable, Readable>;
let exited: Promise<number | null>;
let stderr = "";
let connection: acp.ClientConnection;
const updates: acp.SessionUpdate[] = [];

beforeAll(async () => {
  child = spawn(
    process.execPath,
    [path.join(rootDir, "packages/cli/bin/handoff.js"), "acp", "--url", service.served.url, "--model", "openai-compatible:sim", "--base-url", service.sim.url],
    {
      cwd: rootDir,
      // No database for the bridge: with --url it is only a client of the service.
      env: { ...process.env, HANDOFF_TOKEN: service.token, DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", HANDOFF_DATA_DIR: service.dataDir },
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
  expect(code, stderr).toBe(0);
});

describe("handoff acp --url", () => {
  it("bridges to a running service through the SDK: the service's workers run the session", async () => {
    service.sim.setScenario({ agents: { general: [{ text: "Looking.", toolCalls: [{ name: "list_files", args: { path: "." } }] }, { text: "Nothing here." }] } });
    const { sessionId } = await connection.agent.request(acp.methods.agent.session.new, { cwd: service.dataDir, mcpServers: [] });
    const answer = await connection.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "what is here?" }] });
    expect(answer.stopReason).toBe("end_turn");
    expect(updates.map((u) => u.sessionUpdate)).toEqual(["agent_message_chunk", "tool_call", "tool_call_update", "agent_message_chunk"]);
    // The session is the service's, and its only worker ran it: the bridge started none.
    const workers = await service.pg.db.sql<{ id: string }[]>`SELECT id FROM workers`;
    expect(workers.map((w) => w.id)).toEqual([service.worker.id]);
    const [session] = await service.pg.db.sql<{ status: string }[]>`SELECT status FROM sessions WHERE id = ${sessionId}`;
    expect(session?.status).toBe("idle");
  });

  it("cancels the running turn on session/cancel", async () => {
    service.sim.setScenario({ agents: { general: [{ text: "Too slow.", delayMs: 30_000 }] } });
    const { sessionId } = await connection.agent.request(acp.methods.agent.session.new, { cwd: service.dataDir, mcpServers: [] });
    const answer = connection.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "take your time" }] });
    const deadline = Date.now() + 15_000;
    while (!service.sim.requests().some((r) => r.headers["x-handoff-session"] === sessionId && r.headers["x-handoff-purpose"] !== "housekeeping")) {
      if (Date.now() > deadline) throw new Error(`the model was never asked\n${stderr}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    await connection.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await answer).stopReason).toBe("cancelled");
  });
});
