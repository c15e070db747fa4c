import { createSession, createToken } from "@handoff/db";
import { describe, expect, it } from "vitest";
import { createApiHandler, createTrpcHandler } from "../src/handler";
import { useApi } from "./harness";

const api = useApi({ maxPayloadBytes: 1024 });
const URL_BASE = "http://localhost/api/trpc";

/** The same POST through tRPC's own fetch adapter and through the handler that answers mutations directly. */
async function both(path: string, body: string, headers: Record<string, string>) {
  const send = async (handle: (r: Request) => Promise<Response>) => {
    const res = await handle(new Request(`${URL_BASE}/${path}`, { method: "POST", headers, body }));
    return { status: res.status, contentType: res.headers.get("content-type"), body: await res.text() };
  };
  return {
    trpc: await send(createTrpcHandler(() => api.context)),
    direct: await send(createApiHandler(() => api.context)),
  };
}

const json = (token: string | null) => ({
  "content-type": "application/json",
  ...(token ? { authorization: `Bearer ${token}` } : {}),
});

describe("mutations answered without tRPC's fetch adapter", () => {
  it("answer every refusal exactly as tRPC does: status, content type and body, single and batched", async () => {
    const { db } = api.pg;
    const { sessionId } = await createSession(db, { mode: "interactive" });
    const { sessionId: headless } = await createSession(db, { mode: "headless" });
    const viewer = (await createToken(db, { role: "viewer", workspaceId: "default" })).token;
    const stranger = (await createToken(db, { role: "admin", workspaceId: "elsewhere" })).token;
    const missing = "ses_" + "0".repeat(26);
    const cases: [string, string, string, string | null][] = [
      ["no token", "session.prompt", JSON.stringify({ sessionId, text: "x" }), null],
      ["bad token", "session.prompt", JSON.stringify({ sessionId, text: "x" }), "hnd_nope"],
      ["role too low", "session.prompt", JSON.stringify({ sessionId, text: "x" }), viewer],
      ["another workspace", "session.prompt", JSON.stringify({ sessionId, text: "x" }), stranger],
      ["malformed id", "session.prompt", JSON.stringify({ sessionId: "nope", text: "x" }), api.token],
      ["unknown session", "session.followup", JSON.stringify({ sessionId: missing, text: "x" }), api.token],
      ["oversize", "session.prompt", JSON.stringify({ sessionId, text: "x".repeat(2000) }), api.token],
      ["no input", "session.cancel", "null", api.token],
      ["unknown profile", "session.create", JSON.stringify({ mode: "headless", profile: "nobody" }), api.token],
      ["batch of refusals", "session.prompt,session.steer?batch=1", JSON.stringify({ 0: { sessionId: missing, text: "x" }, 1: { sessionId, text: "" } }), api.token],
      ["batch with a missing input", "session.prompt,session.prompt?batch=1", JSON.stringify({ 0: { sessionId: missing, text: "x" } }), api.token],
    ];
    // A headless session takes one prompt: the second is a CONFLICT, with nothing written.
    await both("session.prompt", JSON.stringify({ sessionId: headless, text: "seed", idempotencyKey: "seed" }), json(api.token));
    cases.push(["second headless prompt", "session.prompt", JSON.stringify({ sessionId: headless, text: "again" }), api.token]);
    for (const [name, path, body, token] of cases) {
      const { trpc, direct } = await both(path, body, json(token));
      expect(direct, name).toEqual(trpc);
      expect(trpc.status, name).not.toBe(200);
    }
  });

  it("answer successes in tRPC's shape, and a batch mixing success and refusal with 207", async () => {
    const { sessionId } = await createSession(api.pg.db, { mode: "interactive" });
    const shape = (body: string) => body.replace(/msg_[0-9a-z]{26}/g, "msg_ID");
    const single = await both("session.prompt", JSON.stringify({ sessionId, text: "hello" }), json(api.token));
    expect(single.direct.status).toBe(200);
    expect(JSON.parse(single.direct.body)).toEqual({ result: { data: { messageId: expect.stringMatching(/^msg_/) } } });
    expect({ ...single.direct, body: shape(single.direct.body) }).toEqual({ ...single.trpc, body: shape(single.trpc.body) });

    const body = JSON.stringify({ 0: { sessionId, text: "one" }, 1: { sessionId: "nope", text: "two" } });
    const mixed = await both("session.prompt,session.prompt?batch=1", body, json(api.token));
    expect(mixed.direct.status).toBe(207);
    expect({ ...mixed.direct, body: shape(mixed.direct.body) }).toEqual({ ...mixed.trpc, body: shape(mixed.trpc.body) });
    // Each side queued its own "one" and nothing else.
    const [row] = await api.pg.db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM inbox_messages WHERE session_id = ${sessionId} AND payload->>'text' = 'one'`;
    expect(row!.n).toBe(2);
  });

  it("leave queries, other content types and bodies that are not JSON to tRPC, which answers them", async () => {
    const cases: [string, string, Record<string, string>][] = [
      ["session.list", "{}", json(api.token)],
      ["session.prompt", "{not json", json(api.token)],
      ["session.prompt", "", json(api.token)],
      ["session.prompt", "text=hi", { "content-type": "application/x-www-form-urlencoded", authorization: `Bearer ${api.token}` }],
      ["no.such.procedure", "{}", json(api.token)],
      ["session.prompt?batch=1&x=2", "{}", json(api.token)],
    ];
    for (const [path, body, headers] of cases) {
      const { trpc, direct } = await both(path, body, headers);
      expect(direct, path).toEqual(trpc);
    }
  });

  it("serves the same answers over HTTP (serveApi) as tRPC's adapter gives", async () => {
    const { sessionId } = await createSession(api.pg.db, { mode: "interactive" });
    const body = JSON.stringify({ sessionId, text: "" });
    const res = await fetch(`${api.url}/api/trpc/session.prompt`, { method: "POST", headers: json(api.token), body });
    const { trpc } = await both("session.prompt", body, json(api.token));
    expect({ status: res.status, contentType: res.headers.get("content-type"), body: await res.text() }).toEqual(trpc);
  });
});
