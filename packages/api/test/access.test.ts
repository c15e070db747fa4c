import { createSession, createToken, enqueue, roleAllows, type Role, type TokenIdentity } from "@handoff/db";
import { builtinProfiles, profileRegistry } from "@handoff/runtime";
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { ACCESS_RULES, appRouter, createCaller, EventHub, RateLimiter, TokenVerifier, type ServiceContext } from "../src/index";
import { useApi } from "./harness";

const api = useApi();

type Call = (caller: ReturnType<typeof createCaller>) => Promise<unknown>;

/** Reads the first item of a subscription, so its authorization and scoping run. */
async function first(iterable: Promise<AsyncIterable<unknown>>): Promise<unknown> {
  const it = (await iterable)[Symbol.asyncIterator]();
  const item = await it.next();
  await it.return?.();
  return item.value;
}

async function fixtures() {
  const { db } = api.pg;
  const interactive = await createSession(db, { mode: "interactive", workspaceId: "default" });
  const headless = await createSession(db, { mode: "headless", workspaceId: "default" });
  await db.sql`UPDATE agents SET status = 'done', stop_reason = 'reply' WHERE id = ${headless.rootAgentId}`;
  const queued = await Promise.all(
    Array.from({ length: 4 }, () => enqueue(db, { sessionId: interactive.sessionId, kind: "prompt", payload: { text: "x" } }, { maxPayloadBytes: 1 << 20 })),
  );
  return { interactive, headless, queued: queued.map((q) => q.messageId) };
}

describe("access rules", () => {
  it("cover every procedure of the router, each with a role", () => {
    const procedures = Object.keys(appRouter._def.procedures).sort();
    expect(procedures.filter((p) => !(p in ACCESS_RULES))).toEqual([]);
    expect(Object.keys(ACCESS_RULES).sort()).toEqual(procedures);
  });

  it("let each role do exactly what its rule allows, and keep every token inside its workspace", async () => {
    const { db } = api.pg;
    const f = await fixtures();
    let nextQueued = 0;
    const calls: Record<string, Call> = {
      "auth.whoami": (c) => c.auth.whoami(),
      "session.create": (c) => c.session.create({ mode: "interactive" }),
      "session.prompt": (c) => c.session.prompt({ sessionId: f.interactive.sessionId, text: "hi" }),
      "session.followup": (c) => c.session.followup({ sessionId: f.interactive.sessionId, text: "more" }),
      "session.steer": (c) => c.session.steer({ sessionId: f.interactive.sessionId, text: "left" }),
      "session.cancel": (c) => c.session.cancel({ sessionId: f.interactive.sessionId, messageId: f.queued[nextQueued++ % f.queued.length]! }),
      "session.get": (c) => c.session.get({ sessionId: f.interactive.sessionId }),
      "session.list": (c) => c.session.list({}),
      "session.messages": (c) => c.session.messages({ sessionId: f.interactive.sessionId }),
      "session.events": (c) => first(c.session.events({ sessionId: f.interactive.sessionId })),
      "session.status": (c) => first(c.session.status({ sessionId: f.interactive.sessionId })),
      "agent.get": (c) => c.agent.get({ agentId: f.interactive.rootAgentId }),
      "agent.tree": (c) => c.agent.tree({ sessionId: f.interactive.sessionId }),
      "agent.resume": (c) => c.agent.resume({ agentId: f.headless.rootAgentId }),
      "ops.workers": (c) => c.ops.workers(),
      "ops.queue": (c) => c.ops.queue(),
    };
    // A new procedure needs a row here too: this fails until it has one.
    expect(Object.keys(calls).sort()).toEqual(Object.keys(appRouter._def.procedures).sort());

    const service: ServiceContext = { ...api.context };
    const callerFor = (auth: TokenIdentity | null) => createCaller({ ...service, auth });
    const identity = async (role: Role, workspaceId: string) => {
      const { token: _t, ...id } = await createToken(db, { role, workspaceId });
      return id;
    };
    const codeOf = async (call: Call, auth: TokenIdentity | null) => {
      try {
        await call(callerFor(auth));
        return "OK";
      } catch (e) {
        if (e instanceof TRPCError) return e.code;
        throw e;
      }
    };

    for (const [path, call] of Object.entries(calls)) {
      const rule = ACCESS_RULES[path]!;
      expect(await codeOf(call, null), `${path} without a token`).toBe("UNAUTHORIZED");
      for (const role of ["viewer", "operator", "admin"] as const) {
        const code = await codeOf(call, await identity(role, "default"));
        expect(code, `${path} as ${role}`).toBe(roleAllows(role, rule) ? "OK" : "FORBIDDEN");
      }
      // Another workspace's admin sees nothing of this one: ids resolve as unknown.
      const foreign = await codeOf(call, await identity("admin", "elsewhere"));
      const scoped = /^(session\.(?!create|list)|agent\.)/.test(path);
      expect(foreign, `${path} from another workspace`).toBe(scoped ? "NOT_FOUND" : "OK");
    }
    const outsider = await identity("operator", "third-party");
    expect((await callerFor(outsider).session.list({})).items).toEqual([]);
    // A session created with a token belongs to that token's workspace, and only there.
    const created = await callerFor(outsider).session.create({ mode: "interactive" });
    expect((await callerFor(outsider).session.list({})).items.map((s) => s.id)).toEqual([created.sessionId]);
    const [row] = await db.sql`SELECT workspace_id FROM sessions WHERE id = ${created.sessionId}`;
    expect(row!.workspace_id).toBe("third-party");
    const insider = await identity("admin", "default");
    await expect(callerFor(insider).session.get({ sessionId: created.sessionId })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("answer a request without a valid token with UNAUTHORIZED over HTTP", async () => {
    const noToken = api.client(null);
    await expect(noToken.session.list.query({})).rejects.toMatchObject({ data: { code: "UNAUTHORIZED" } });
    const badToken = api.client("hnd_" + "x".repeat(43));
    await expect(badToken.session.list.query({})).rejects.toMatchObject({ data: { code: "UNAUTHORIZED" } });
  });
});

describe("rate limit", () => {
  it("answers the request past the per-token limit with TOO_MANY_REQUESTS", async () => {
    const { db } = api.pg;
    const limited = { ...api.context, rateLimiter: new RateLimiter(5), tokens: new TokenVerifier(db), hub: new EventHub(db), profiles: profileRegistry(new Map(Object.entries(builtinProfiles))) };
    const { token: _t, ...auth } = await createToken(db, { role: "viewer", workspaceId: "default" });
    const caller = createCaller({ ...limited, auth });
    for (let i = 0; i < 5; i++) await caller.session.list({});
    await expect(caller.session.list({})).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS", message: expect.stringContaining("5 requests a minute") });
  });
});
