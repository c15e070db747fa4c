import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { useApi } from "./harness";

const api = useApi({ maxPayloadBytes: 1024 });

async function rowCounts() {
  const [row] = await api.pg.db.sql<{ sessions: number; agents: number; messages: number; events: number }[]>`
    SELECT (SELECT count(*)::int FROM sessions) AS sessions, (SELECT count(*)::int FROM agents) AS agents,
           (SELECT count(*)::int FROM inbox_messages) AS messages, (SELECT count(*)::int FROM events) AS events`;
  return row!;
}

async function codeOf(call: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await call();
  } catch (e) {
    if (!(e instanceof TRPCClientError)) throw e;
    expect(JSON.stringify(e.shape ?? {})).not.toMatch(/at .*\.ts:\d+/); // no stack traces
    return { code: e.data?.code, message: e.message };
  }
  throw new Error("expected the call to fail");
}

describe("invalid inputs", () => {
  it("get typed errors from every procedure and change no row", async () => {
    const t = api.client();
    const { sessionId, rootAgentId } = await t.session.create.mutate({ mode: "interactive" });
    const { messageId } = await t.session.prompt.mutate({ sessionId, text: "hello" });
    const before = await rowCounts();
    const missingSession = "ses_" + "0".repeat(26);
    const missingAgent = "agt_" + "0".repeat(26);
    const cases: [string, () => Promise<unknown>, string, RegExp][] = [
      ["create: unknown mode", () => t.session.create.mutate({ mode: "chatty" as never }), "BAD_REQUEST", /mode/],
      ["create: unknown profile", () => t.session.create.mutate({ mode: "headless", profile: "nobody" }), "BAD_REQUEST", /unknown profile "nobody"/],
      ["create: bad model", () => t.session.create.mutate({ mode: "headless", model: "gpt4" }), "BAD_REQUEST", /provider:model/],
      ["create: extra field", () => t.session.create.mutate({ mode: "headless", colour: "red" } as never), "BAD_REQUEST", /colour/],
      ["prompt: malformed id", () => t.session.prompt.mutate({ sessionId: "nope", text: "x" }), "BAD_REQUEST", /not a session id/],
      ["prompt: unknown session", () => t.session.prompt.mutate({ sessionId: missingSession, text: "x" }), "NOT_FOUND", /does not exist/],
      ["prompt: empty text", () => t.session.prompt.mutate({ sessionId, text: "" }), "BAD_REQUEST", /text/],
      ["prompt: wrong type", () => t.session.prompt.mutate({ sessionId, text: 42 as never }), "BAD_REQUEST", /text/],
      ["prompt: oversize", () => t.session.prompt.mutate({ sessionId, text: "x".repeat(5000) }), "PAYLOAD_TOO_LARGE", /limit is 1024/],
      ["followup: unknown session", () => t.session.followup.mutate({ sessionId: missingSession, text: "x" }), "NOT_FOUND", /does not exist/],
      ["steer: unknown agent", () => t.session.steer.mutate({ sessionId, text: "x", agentId: missingAgent }), "NOT_FOUND", /is not in session/],
      ["cancel: unknown message", () => t.session.cancel.mutate({ sessionId, messageId: "msg_" + "0".repeat(26) }), "NOT_FOUND", /is not in session/],
      ["cancel: unknown session", () => t.session.cancel.mutate({ sessionId: missingSession }), "NOT_FOUND", /does not exist/],
      ["get: unknown session", () => t.session.get.query({ sessionId: missingSession }), "NOT_FOUND", /does not exist/],
      ["list: bad limit", () => t.session.list.query({ limit: 0 }), "BAD_REQUEST", /limit/],
      ["list: bad cursor", () => t.session.list.query({ cursor: "garbage" }), "BAD_REQUEST", /invalid cursor/],
      // A cursor that decodes to a timestamp and a NUL byte (found by inputs.property.test.ts): once a 500 from Postgres.
      ["list: cursor with NUL", () => t.session.list.query({ cursor: "MjAyNi0wMS0wMSAwMDowMDowMC4xMjM0NTYrMDB8AA" }), "BAD_REQUEST", /invalid cursor/],
      ["list: cursor with a stray id", () => t.session.list.query({ cursor: Buffer.from("2026-01-01 00:00:00+00|agt_x").toString("base64url") }), "BAD_REQUEST", /invalid cursor/],
      ["list: bad verdict", () => t.session.list.query({ verdict: ["GOOD" as never] }), "BAD_REQUEST", /verdict/],
      ["messages: unknown session", () => t.session.messages.query({ sessionId: missingSession }), "NOT_FOUND", /does not exist/],
      ["agent.get: unknown", () => t.agent.get.query({ agentId: missingAgent }), "NOT_FOUND", /does not exist/],
      ["agent.get: malformed", () => t.agent.get.query({ agentId: "agt_x" }), "BAD_REQUEST", /not a agent id|not an? agent id/],
      ["agent.tree: unknown", () => t.agent.tree.query({ sessionId: missingSession }), "NOT_FOUND", /does not exist/],
      ["agent.resume: unknown", () => t.agent.resume.mutate({ agentId: missingAgent }), "NOT_FOUND", /does not exist/],
      ["agent.resume: interactive root", () => t.agent.resume.mutate({ agentId: rootAgentId }), "CONFLICT", /interactive root/],
    ];
    for (const [name, call, code, message] of cases) {
      const error = await codeOf(call);
      expect(error.code, name).toBe(code);
      expect(error.message, name).toMatch(message);
    }
    expect(await rowCounts()).toEqual(before);
    // An admitted message cannot be cancelled; that is a conflict, and nothing changes.
    await api.pg.db.sql`UPDATE inbox_messages SET state = 'admitted', admitted_turn_id = 'trn_x' WHERE id = ${messageId}`;
    expect((await codeOf(() => t.session.cancel.mutate({ sessionId, messageId }))).code).toBe("CONFLICT");
    expect(await rowCounts()).toEqual(before);
  });

  it("refuse a second prompt to a headless session", async () => {
    const t = api.client();
    const { sessionId } = await t.session.create.mutate({ mode: "headless", prompt: "the one prompt" });
    const error = await codeOf(() => t.session.prompt.mutate({ sessionId, text: "another" }));
    expect(error).toMatchObject({ code: "CONFLICT", message: expect.stringContaining("already has its prompt") });
  });
});

describe("idempotency", () => {
  it("stores one row per key for 100 concurrent prompts with retried keys", async () => {
    const t = api.client();
    const { sessionId } = await t.session.create.mutate({ mode: "interactive" });
    const keys = Array.from({ length: 25 }, (_, i) => `key-${i}`);
    const calls = keys.flatMap((key) => Array.from({ length: 4 }, () => t.session.prompt.mutate({ sessionId, text: `for ${key}`, idempotencyKey: key })));
    const results = await Promise.all(calls);
    const byKey = new Map<string, Set<string>>();
    results.forEach((r, i) => {
      const key = keys[Math.floor(i / 4)]!;
      byKey.set(key, (byKey.get(key) ?? new Set()).add(r.messageId));
    });
    expect([...byKey.values()].every((ids) => ids.size === 1)).toBe(true);
    const rows = await api.pg.db.sql<{ key: string; n: number }[]>`
      SELECT idempotency_key AS key, count(*)::int AS n FROM inbox_messages WHERE session_id = ${sessionId} GROUP BY 1`;
    expect(rows).toHaveLength(25);
    expect(rows.every((r) => r.n === 1)).toBe(true);
  });
});
