import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createSession, enqueue } from "@handoff/db";
import { useTestDatabase, waitFor } from "@handoff/db/testing";
import { createModelSim } from "@handoff/model-sim";
import { describe, expect, it, onTestFinished } from "vitest";
import { spawnWorker } from "./faults/lib/processes";

const pg = useTestDatabase();

describe("a background child's result", () => {
  it("reaches its parent after the parent's worker is SIGKILLed between the child's end and the admission", async () => {
    const { db, url } = pg.current;
    const sim = await createModelSim({
      scenario: {
        agents: {
          general: [
            { toolCalls: [{ name: "task", args: { profile: "explore", prompt: "look around", background: true } }] },
            // The parent is in this slow step when its child ends and when its worker is killed.
            { toolCalls: [{ name: "list_files", args: {} }], delayMs: 5000 },
            { toolCalls: [{ name: "reply", args: { value: "parent done" } }] },
          ],
          explore: [{ toolCalls: [{ name: "reply", args: { value: "child found it" } }] }],
        },
      },
    });
    onTestFinished(() => sim.close());
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "handoff-kill-"));
    onTestFinished(() => rm(dataDir, { recursive: true, force: true }));
    const env = {
      DATABASE_URL: url,
      HANDOFF_MODEL: "openai-compatible:sim",
      HANDOFF_BASE_URL: sim.url,
      HANDOFF_DATA_DIR: dataDir,
      HANDOFF_AGENTS_DIR: dataDir,
      HANDOFF_LEASE_TTL_MS: "1000",
      HANDOFF_POLL_MS: "200",
      HANDOFF_LOG_LEVEL: "silent",
    };
    const first = spawnWorker(env);
    const { sessionId, rootAgentId } = await createSession(db, { mode: "headless" });
    await enqueue(db, { sessionId, kind: "prompt", payload: { text: "go" } }, { maxPayloadBytes: 1 << 20 });

    const resultId = await waitFor("the child's result in the parent's inbox", async () => {
      const [m] = await db.sql<{ id: string; state: string }[]>`
        SELECT id, state FROM inbox_messages WHERE session_id = ${sessionId} AND kind = 'child_result'`;
      return m?.id;
    });
    await first.kill();
    const [before] = await db.sql`SELECT state FROM inbox_messages WHERE id = ${resultId}`;
    expect(before!.state).toBe("queued");

    const second = spawnWorker(env);
    const [root] = await waitFor("the root's reply", async () => {
      const rows = await db.sql<{ status: string; replyValue: unknown }[]>`
        SELECT status, reply_value AS "replyValue" FROM agents WHERE id = ${rootAgentId} AND status = 'done'`;
      return rows.length > 0 ? rows : null;
    });
    expect(root!.replyValue).toBe("parent done");
    const [after] = await db.sql`SELECT state, admitted_turn_id FROM inbox_messages WHERE id = ${resultId}`;
    expect(after!.state).toBe("admitted");
    const lastParentRequest = sim.requests().filter((r) => r.headers["x-handoff-agent"] === rootAgentId).at(-1)!;
    expect(JSON.stringify(lastParentRequest.body)).toContain("child found it");
    // Admitted exactly once, by the worker that took the session over.
    const admissions = await db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM events
      WHERE session_id = ${sessionId} AND type = 'message.admit' AND data::text LIKE ${`%${resultId}%`}`;
    expect(admissions[0]!.n).toBe(1);
    expect(await second.stop()).toBe(0);
  });
});
