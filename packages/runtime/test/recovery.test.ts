import { createSession, enqueue, readEvents } from "@handoff/db";
import { useTestDatabase } from "@handoff/db/testing";
import { describe, expect, it } from "vitest";
import { ownSession } from "../src/index";
import { agentFacts, startHarness } from "./harness";

const pg = useTestDatabase();

describe("a turn left by a dead worker", () => {
  it("is resumed from durable state: the step in flight is redone and a recorded tool call is not run again", async () => {
    const { db } = pg.current;
    const h = await startHarness({
      agents: {
        "*": [
          { toolCalls: [{ name: "write_file", args: { path: "log.txt", content: "once" } }] },
          // The step in flight when the first worker dies: it never answers that worker.
          { toolCalls: [{ name: "reply", args: { value: "first worker never sees this" } }], delayMs: 3000 },
          { toolCalls: [{ name: "reply", args: { value: "finished by the second worker" } }] },
        ],
      },
    });
    const { sessionId, rootAgentId } = await createSession(db, { mode: "headless" });
    const dying = new AbortController();
    const first = (await ownSession(db, sessionId, h.runtime.driver, { signal: dying.signal, ttlMs: 60_000 }))!;
    await enqueue(db, { sessionId, kind: "prompt", payload: { text: "go" } }, { maxPayloadBytes: 1 << 20 });
    const driving = first.driveToIdle();
    await expect
      .poll(async () => (await readEvents(db.sql, sessionId)).filter((e) => e.type === "model-step.start").length, {
        timeout: 10_000,
      })
      .toBe(2);
    dying.abort(new Error("worker died"));
    await expect(driving).rejects.toThrow();
    // The dead worker's lease expires; another takes the session over.
    await db.sql`UPDATE sessions SET lease_expires_at = now() - interval '1 second' WHERE id = ${sessionId}`;
    const second = (await ownSession(db, sessionId, h.runtime.driver))!;
    expect(second.lease.epoch).toBeGreaterThan(first.lease.epoch);
    await second.driveToIdle();
    await second.release();

    const root = await agentFacts(db, rootAgentId);
    expect(root).toMatchObject({ status: "done", replyValue: "finished by the second worker", modelSteps: 2 });
    const steps = await db.sql<{ status: string }[]>`SELECT status FROM model_steps WHERE agent_id = ${rootAgentId} ORDER BY started_at`;
    expect(steps.map((s) => s.status)).toEqual(["settled", "abandoned", "settled"]);
    const writes = await db.sql`SELECT 1 FROM tool_calls WHERE agent_id = ${rootAgentId} AND name = 'write_file'`;
    expect(writes).toHaveLength(1);
    const events = await readEvents(db.sql, sessionId);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const admitted = await db.sql`SELECT state FROM inbox_messages WHERE session_id = ${sessionId}`;
    expect(admitted.map((m) => m.state)).toEqual(["admitted"]);
  });

  it("settles a step whose response was recorded without running its recorded tool calls again", async () => {
    const { db } = pg.current;
    const h = await startHarness({
      agents: {
        "*": [
          { toolCalls: [{ name: "write_file", args: { path: "a.txt", content: "a" } }, { name: "write_file", args: { path: "b.txt", content: "b" } }] },
          { toolCalls: [{ name: "reply", args: { value: "done" } }] },
        ],
      },
    });
    const { sessionId, rootAgentId } = await createSession(db, { mode: "headless" });
    const dying = new AbortController();
    const first = (await ownSession(db, sessionId, h.runtime.driver, { signal: dying.signal }))!;
    await enqueue(db, { sessionId, kind: "prompt", payload: { text: "go" } }, { maxPayloadBytes: 1 << 20 });
    // Die right after the first of the two tool calls is recorded.
    const listener = await db.sql.listen("handoff_events", async () => {
      const done = await db.sql`SELECT 1 FROM tool_calls WHERE agent_id = ${rootAgentId} AND status = 'done'`;
      if (done.length >= 1) dying.abort(new Error("worker died"));
    });
    await first.driveToIdle().catch(() => {});
    await listener.unlisten();
    await db.sql`UPDATE sessions SET lease_expires_at = now() - interval '1 second' WHERE id = ${sessionId}`;
    const second = (await ownSession(db, sessionId, h.runtime.driver))!;
    await second.driveToIdle();
    await second.release();

    expect(await agentFacts(db, rootAgentId)).toMatchObject({ status: "done", replyValue: "done" });
    const calls = await db.sql<{ name: string; n: number }[]>`
      SELECT args->>'path' AS name, count(*)::int AS n FROM tool_calls WHERE agent_id = ${rootAgentId} AND name = 'write_file' GROUP BY 1 ORDER BY 1`;
    expect(calls).toEqual([
      { name: "a.txt", n: 1 },
      { name: "b.txt", n: 1 },
    ]);
    const starts = (await readEvents(db.sql, sessionId)).filter((e) => e.type === "tool-call.start" && e.data.name === "write_file");
    expect(starts.map((e) => (e.data.args as { path: string }).path).sort()).toEqual(["a.txt", "b.txt"]);
  });
});
