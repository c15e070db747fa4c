import { describe, expect, it } from "vitest";
import { admit, cancelMessage, createSession, enqueue, readEvents } from "../src/index";
import { useTestDatabase } from "../src/testing/index";

const pg = useTestDatabase();
const limits = { maxPayloadBytes: 256 * 1024 };

async function countRows(sessionId: string) {
  const [row] = await pg.current.db.sql<{ messages: number; events: number }[]>`
    SELECT (SELECT count(*)::int FROM inbox_messages WHERE session_id = ${sessionId}) AS messages,
           (SELECT count(*)::int FROM events WHERE session_id = ${sessionId}) AS events`;
  return row!;
}

describe("inbox", () => {
  it("returns one id to 10 concurrent enqueues with the same idempotency key and stores one row", async () => {
    const { db } = pg.current;
    const { sessionId } = await createSession(db, { mode: "interactive" });
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        enqueue(db, { sessionId, kind: "prompt", payload: { text: "hi" }, idempotencyKey: "k-1" }, limits),
      ),
    );
    const ids = new Set(results.map((r) => r.messageId));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    expect(await countRows(sessionId)).toEqual({ messages: 1, events: 2 });
  });

  it("admits queued messages into a new turn in arrival order", async () => {
    const { db } = pg.current;
    const { sessionId, rootAgentId } = await createSession(db, { mode: "interactive" });
    const sent = [];
    for (const text of ["one", "two", "three"]) {
      sent.push((await enqueue(db, { sessionId, kind: "prompt", payload: { text } }, limits)).messageId);
    }
    const admission = await admit(db, { sessionId, agentId: rootAgentId, isRoot: true });
    expect(admission.turnId).toMatch(/^trn_/);
    expect(admission.messages.map((m) => m.id)).toEqual(sent);
    expect(admission.messages.map((m) => (m.payload as { text: string }).text)).toEqual(["one", "two", "three"]);
    const stored = await db.sql`SELECT state, admitted_turn_id FROM inbox_messages WHERE session_id = ${sessionId}`;
    expect(stored.every((r) => r.state === "admitted" && r.admitted_turn_id === admission.turnId)).toBe(true);
    // Nothing is left to admit a second time.
    expect((await admit(db, { sessionId, agentId: rootAgentId, isRoot: true })).messages).toEqual([]);
    const types = (await readEvents(db.sql, sessionId)).map((e) => e.type);
    expect(types).toEqual(["session.create", "message.queue", "message.queue", "message.queue", "turn.start", "message.admit"]);
  });

  it("admits only the requested kinds into a running turn", async () => {
    const { db } = pg.current;
    const { sessionId, rootAgentId } = await createSession(db, { mode: "interactive" });
    await enqueue(db, { sessionId, kind: "prompt", payload: { text: "start" } }, limits);
    const first = await admit(db, { sessionId, agentId: rootAgentId, isRoot: true });
    const steer = await enqueue(db, { sessionId, kind: "steer", payload: { text: "left" } }, limits);
    const later = await enqueue(db, { sessionId, kind: "followup", payload: { text: "later" } }, limits);
    const boundary = await admit(db, {
      sessionId,
      agentId: rootAgentId,
      isRoot: true,
      turnId: first.turnId!,
      kinds: ["steer", "context", "child_result"],
    });
    expect(boundary.messages.map((m) => m.id)).toEqual([steer.messageId]);
    expect(boundary.turnId).toBe(first.turnId);
    const [row] = await db.sql`SELECT state FROM inbox_messages WHERE id = ${later.messageId}`;
    expect(row!.state).toBe("queued");
  });

  it("refuses to cancel an admitted message and leaves it admitted", async () => {
    const { db } = pg.current;
    const { sessionId, rootAgentId } = await createSession(db, { mode: "interactive" });
    const { messageId } = await enqueue(db, { sessionId, kind: "prompt", payload: { text: "x" } }, limits);
    const { turnId } = await admit(db, { sessionId, agentId: rootAgentId, isRoot: true });
    await expect(cancelMessage(db, { sessionId, messageId })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining(`already admitted by turn ${turnId}`),
    });
    const [row] = await db.sql`SELECT state FROM inbox_messages WHERE id = ${messageId}`;
    expect(row!.state).toBe("admitted");
  });

  it("records the cancel of a queued message, which is then never admitted", async () => {
    const { db } = pg.current;
    const { sessionId, rootAgentId } = await createSession(db, { mode: "interactive" });
    const { messageId } = await enqueue(db, { sessionId, kind: "prompt", payload: { text: "x" } }, limits);
    const kept = await enqueue(db, { sessionId, kind: "prompt", payload: { text: "y" } }, limits);
    expect(await cancelMessage(db, { sessionId, messageId })).toEqual({ messageId, changed: true });
    expect(await cancelMessage(db, { sessionId, messageId })).toEqual({ messageId, changed: false });
    const admission = await admit(db, { sessionId, agentId: rootAgentId, isRoot: true });
    expect(admission.messages.map((m) => m.id)).toEqual([kept.messageId]);
    const [row] = await db.sql`SELECT state, cancelled_at, admitted_turn_id FROM inbox_messages WHERE id = ${messageId}`;
    expect(row).toMatchObject({ state: "cancelled", admitted_turn_id: null });
    expect(row!.cancelled_at).toBeInstanceOf(Date);
    expect((await readEvents(db.sql, sessionId)).some((e) => e.type === "message.cancel")).toBe(true);
  });

  it("rejects an enqueue to an unknown session with NOT_FOUND and writes nothing", async () => {
    const { db } = pg.current;
    await expect(
      enqueue(db, { sessionId: "ses_missing", kind: "prompt", payload: { text: "x" } }, limits),
    ).rejects.toMatchObject({ name: "HandoffError", code: "NOT_FOUND", message: "session ses_missing does not exist" });
    const [row] = await db.sql`SELECT count(*)::int AS n FROM inbox_messages WHERE session_id = 'ses_missing'`;
    expect(row!.n).toBe(0);
  });

  it("rejects an unknown kind with INVALID_INPUT naming the field, and writes nothing", async () => {
    const { db } = pg.current;
    const { sessionId } = await createSession(db, { mode: "interactive" });
    const before = await countRows(sessionId);
    await expect(
      enqueue(db, { sessionId, kind: "shout" as never, payload: { text: "x" } }, limits),
    ).rejects.toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("kind") });
    expect(await countRows(sessionId)).toEqual(before);
  });

  it("rejects a payload over the limit with PAYLOAD_TOO_LARGE, and writes nothing", async () => {
    const { db } = pg.current;
    const { sessionId } = await createSession(db, { mode: "interactive" });
    const before = await countRows(sessionId);
    const big = { text: "x".repeat(300 * 1024) };
    await expect(enqueue(db, { sessionId, kind: "prompt", payload: big }, limits)).rejects.toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      details: { limit: 256 * 1024 },
    });
    // The limit is configurable: the same payload fits under a larger one.
    await expect(enqueue(db, { sessionId, kind: "prompt", payload: big }, { maxPayloadBytes: 512 * 1024 })).resolves
      .toMatchObject({ duplicate: false });
    expect(await countRows(sessionId)).toEqual({ messages: before.messages + 1, events: before.events + 1 });
  });

  it("rejects a message for an agent of another session with NOT_FOUND", async () => {
    const { db } = pg.current;
    const a = await createSession(db, { mode: "interactive" });
    const b = await createSession(db, { mode: "interactive" });
    await expect(
      enqueue(db, { sessionId: a.sessionId, kind: "steer", payload: {}, targetAgentId: b.rootAgentId }, limits),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await countRows(a.sessionId)).messages).toBe(0);
  });

  it("seeds a headless session once, takes nothing once it has ended, and still answers a retried key", async () => {
    const { db } = pg.current;
    const { sessionId } = await createSession(db, { mode: "headless" });
    const first = await enqueue(db, { sessionId, kind: "prompt", payload: { text: "the one" }, idempotencyKey: "seed" }, limits);
    const seeded = await countRows(sessionId);
    for (const kind of ["prompt", "followup"] as const) {
      await expect(enqueue(db, { sessionId, kind, payload: { text: "another" } }, limits)).rejects.toMatchObject({
        code: "CONFLICT",
        message: `headless session ${sessionId} already has its prompt; steer it instead`,
      });
    }
    // Steering is how a running headless session takes more.
    await expect(enqueue(db, { sessionId, kind: "steer", payload: { text: "left" } }, limits)).resolves.toMatchObject({ duplicate: false });
    await db.sql`UPDATE sessions SET status = 'ended' WHERE id = ${sessionId}`;
    await expect(enqueue(db, { sessionId, kind: "prompt", payload: { text: "late" } }, limits)).rejects.toMatchObject({
      code: "CONFLICT",
      message: `session ${sessionId} has ended; start a new session`,
    });
    // A retry of the seeding call still gets its id: it inserted nothing new.
    const retry = await enqueue(db, { sessionId, kind: "prompt", payload: { text: "the one" }, idempotencyKey: "seed" }, limits);
    expect(retry).toEqual({ messageId: first.messageId, duplicate: true });
    expect(await countRows(sessionId)).toEqual({ messages: seeded.messages + 1, events: seeded.events + 1 });
  });

  it("treats a session of another workspace as one that does not exist, and writes nothing", async () => {
    const { db } = pg.current;
    const { sessionId } = await createSession(db, { mode: "interactive", workspaceId: "acme" });
    const before = await countRows(sessionId);
    await expect(
      enqueue(db, { sessionId, kind: "prompt", payload: { text: "x" } }, { ...limits, workspaceId: "default" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: `session ${sessionId} does not exist` });
    expect(await countRows(sessionId)).toEqual(before);
    await expect(
      enqueue(db, { sessionId, kind: "prompt", payload: { text: "x" } }, { ...limits, workspaceId: "acme" }),
    ).resolves.toMatchObject({ duplicate: false });
  });
});
