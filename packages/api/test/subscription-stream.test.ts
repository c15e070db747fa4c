import { appendEvents, createSession, createToken } from "@handoff/db";
import { initTRPC, tracked, TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseSubscriptionCall, subscriptionResponse } from "../src/events/subscription-response";
import { appRouter, createApiHandler, requestToken, type ApiContext } from "../src/index";
import { useApi } from "./harness";

const api = useApi();
const ENDPOINT = "/api/trpc";

/** What tRPC's own fetch adapter answers, with the context the API handler builds. */
function trpcHandler(req: Request): Promise<Response> {
  return fetchRequestHandler({
    endpoint: ENDPOINT,
    req,
    router: appRouter,
    createContext: async ({ info }): Promise<ApiContext> => {
      const token = requestToken((name) => req.headers.get(name), info.connectionParams);
      return { ...api.context, auth: token ? await api.context.tokens.verify(token) : null };
    },
  });
}

/** The body's text until it ends, or until it has been quiet for `quietMs`. */
async function bodyText(res: Response, quietMs = 400): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const read = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), quietMs))]);
      if (!read || read.done) return text;
      text += decoder.decode(read.value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

async function bothAnswers(path: string, query: Record<string, unknown>, headers: Record<string, string> = {}) {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, typeof v === "string" ? v : JSON.stringify(v)]));
  const url = `http://localhost${ENDPOINT}/${path}?${search}`;
  const ours = await createApiHandler(() => api.context)(new Request(url, { headers }));
  const theirs = await trpcHandler(new Request(url, { headers }));
  expect(parseSubscriptionCall(new Request(url, { headers }), appRouter, ENDPOINT), "served by the fast path").not.toBeNull();
  return {
    ours: { status: ours.status, type: ours.headers.get("content-type"), text: await bodyText(ours) },
    theirs: { status: theirs.status, type: theirs.headers.get("content-type"), text: await bodyText(theirs) },
  };
}

describe("subscriptions over SSE", () => {
  it("write what tRPC's own SSE handler writes, byte for byte: replay, resume, and every refusal", async () => {
    const { db } = api.pg;
    const { sessionId } = await createSession(db, { mode: "interactive", workspaceId: "default" });
    await db.sql.begin((tx) => appendEvents(tx, sessionId, [{ type: "a", data: { n: 1, text: "é\n\"x\"" } }, { type: "session.status", data: { status: "running" } }]));
    const viewer = (await createToken(db, { role: "viewer", workspaceId: "default" })).token;
    const foreign = (await createToken(db, { role: "admin", workspaceId: "elsewhere" })).token;
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const cases: { name: string; path: string; query: Record<string, unknown>; headers?: Record<string, string>; expect: RegExp }[] = [
      { name: "replay", path: "session.events", query: { input: { sessionId } }, headers: bearer(viewer), expect: /id: 3\n/ },
      { name: "Last-Event-ID header", path: "session.events", query: { input: { sessionId } }, headers: { ...bearer(viewer), "last-event-id": "2" }, expect: /^(?![\s\S]*id: 2\n)[\s\S]*id: 3\n/ },
      { name: "lastEventId param", path: "session.events", query: { input: { sessionId }, lastEventId: "1" }, headers: bearer(viewer), expect: /id: 2\n/ },
      { name: "token as a connection param", path: "session.events", query: { input: { sessionId }, connectionParams: { token: viewer } }, expect: /id: 1\n/ },
      { name: "no token", path: "session.events", query: { input: { sessionId } }, expect: /"code":"UNAUTHORIZED"/ },
      { name: "another workspace", path: "session.events", query: { input: { sessionId } }, headers: bearer(foreign), expect: /"code":"NOT_FOUND"/ },
      { name: "bad input", path: "session.events", query: { input: { sessionId: "nope", extra: 1 } }, headers: bearer(viewer), expect: /"code":"BAD_REQUEST"/ },
      { name: "status", path: "session.status", query: { input: { sessionId } }, headers: bearer(viewer), expect: /"seq":3\}\nid: 3\n/ },
      { name: "status resumed", path: "session.status", query: { input: { sessionId } }, headers: { ...bearer(viewer), "last-event-id": "1" }, expect: /"status":"running","seq":3/ },
    ];
    for (const c of cases) {
      const { ours, theirs } = await bothAnswers(c.path, c.query, c.headers);
      expect(ours, c.name).toEqual(theirs);
      expect(ours.type, c.name).toBe("text/event-stream");
      expect(ours.text, c.name).toMatch(c.expect);
      expect(ours.text, c.name).toMatch(/^event: connected\ndata: \{"reconnectAfterInactivityMs":30000\}\n\n\n/);
    }
  });

  it("leave to tRPC what is not a plain subscription call", () => {
    const parse = (url: string, init?: RequestInit) => parseSubscriptionCall(new Request(`http://localhost${url}`, init), appRouter, ENDPOINT);
    expect(parse(`${ENDPOINT}/session.get?input={}`)).toBeNull();
    expect(parse(`${ENDPOINT}/session.events?batch=1&input={}`)).toBeNull();
    expect(parse(`${ENDPOINT}/session.events?input={not json`)).toBeNull();
    expect(parse(`${ENDPOINT}/session.events?connectionParams=[1]`)).toBeNull();
    expect(parse(`${ENDPOINT}/session.events`, { method: "POST", body: "{}" })).toBeNull();
    expect(parse(`${ENDPOINT}/session.events?input=${encodeURIComponent('{"sessionId":"s"}')}`, { headers: { "last-event-id": "7" } })).toEqual({
      path: "session.events",
      input: { sessionId: "s", lastEventId: "7" },
      lastEventId: "7",
      connectionParams: null,
    });
  });
});

/** A router of its own with short SSE timings: pings, the end of a stream's life, errors and untracked items. */
const t = initTRPC.create({
  isDev: false,
  sse: { ping: { enabled: true, intervalMs: 60 }, maxDurationMs: 500, client: { reconnectAfterInactivityMs: 200 } },
});
const testRouter = t.router({
  quiet: t.procedure.subscription(async function* ({ signal }) {
    yield tracked("1", { n: 1 });
    await new Promise<void>((resolve) => signal?.addEventListener("abort", () => resolve(), { once: true }));
  }),
  finite: t.procedure.input(z.object({ lastEventId: z.string().optional() }).optional()).subscription(async function* () {
    yield tracked("5", { n: 5 });
    yield { untracked: true };
    yield { again: [1, 2] };
  }),
  fails: t.procedure.subscription(async function* () {
    yield tracked("1", { n: 1 });
    throw new TRPCError({ code: "CONFLICT", message: "it went wrong" });
  }),
});

async function testRouterAnswers(path: string, headers: Record<string, string> = {}, quietMs = 400) {
  const url = `http://localhost${ENDPOINT}/${path}`;
  const call = parseSubscriptionCall(new Request(url, { headers }), testRouter, ENDPOINT)!;
  expect(call).not.toBeNull();
  const started = Date.now();
  const ours = await bodyText(subscriptionResponse(new Request(url, { headers }), call, { router: testRouter, createContext: async () => ({}) }), quietMs);
  const oursMs = Date.now() - started;
  const theirs = await bodyText(await fetchRequestHandler({ endpoint: ENDPOINT, req: new Request(url, { headers }), router: testRouter }), quietMs);
  return { ours, theirs, oursMs };
}

describe("the SSE writer, against tRPC's on a router of its own", () => {
  it("writes untracked items, a restored id and the end of the stream as tRPC does", async () => {
    const plain = await testRouterAnswers("finite");
    expect(plain.ours).toBe(plain.theirs);
    expect(plain.ours).toContain("event: return\n");
    const resumed = await testRouterAnswers("finite", { "last-event-id": "4" });
    expect(resumed.ours).toBe(resumed.theirs);
    expect(resumed.ours).toContain("event: restore-id\ndata: \nid: 5\n");
  });

  it("writes an error thrown mid-stream as tRPC does", async () => {
    const { ours, theirs } = await testRouterAnswers("fails");
    expect(ours).toBe(theirs);
    expect(ours).toMatch(/event: serialized-error\ndata: .*"CONFLICT"/);
  });

  it("pings a quiet stream and ends it after its maximum duration", async () => {
    const { ours, theirs, oursMs } = await testRouterAnswers("quiet", {}, 1_000);
    const withoutPings = (s: string) => s.replaceAll("event: ping\ndata: \n\n\n", "");
    expect(withoutPings(ours)).toBe(withoutPings(theirs));
    expect(ours.split("event: ping").length - 1).toBeGreaterThanOrEqual(3);
    expect(oursMs).toBeGreaterThanOrEqual(450);
    expect(oursMs).toBeLessThan(1_000);
  });
});
