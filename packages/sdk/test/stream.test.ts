import { appendEvents, createSession } from "@handoff/db";
import { describe, expect, it } from "vitest";
import { useApi } from "./harness";
import { tcpProxy } from "./tcp-proxy";

const api = useApi();

describe("session.events", () => {
  it("resumes after the connection is cut mid-stream with contiguous, unique sequence numbers", async () => {
    const { db } = api.pg;
    const { sessionId } = await createSession(db, { mode: "interactive" });
    const proxy = await tcpProxy(Number(new URL(api.url).port));
    const total = 1 + 300;
    const abort = new AbortController();
    const seen: number[] = [];
    const reading = (async () => {
      for await (const e of api.client(proxy.url).events(sessionId, { signal: abort.signal })) {
        seen.push(e.seq);
        if (e.seq >= total) break;
      }
    })();
    for (let i = 0; i < 300; i++) {
      await db.sql.begin((tx) => appendEvents(tx, sessionId, [{ type: "test.tick", data: { i } }]));
      if (i === 80 || i === 190) proxy.cut();
      if (i % 10 === 0) await new Promise((r) => setTimeout(r, 15));
    }
    await reading;
    abort.abort();
    expect(proxy.cuts).toBe(2);
    expect(seen).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  });

  it("replays from lastEventId, then goes live", async () => {
    const { db } = api.pg;
    const { sessionId } = await createSession(db, { mode: "interactive" });
    await db.sql.begin((tx) => appendEvents(tx, sessionId, [{ type: "a" }, { type: "b" }, { type: "c" }]));
    const abort = new AbortController();
    const got: string[] = [];
    const reading = (async () => {
      for await (const e of api.client().events(sessionId, { lastEventId: 2, signal: abort.signal })) {
        got.push(`${e.seq}:${e.type}`);
        if (e.seq === 5) break;
      }
    })();
    await new Promise((r) => setTimeout(r, 100));
    await db.sql.begin((tx) => appendEvents(tx, sessionId, [{ type: "live" }]));
    await reading;
    abort.abort();
    expect(got).toEqual(["3:b", "4:c", "5:live"]);
  });

  it("streams whole-session status transitions, starting from the current status", async () => {
    const { db } = api.pg;
    const { sessionId } = await createSession(db, { mode: "interactive" });
    const abort = new AbortController();
    const got: string[] = [];
    const reading = (async () => {
      for await (const s of api.client().status(sessionId, { signal: abort.signal })) {
        got.push(s.status);
        if (got.length === 3) break;
      }
    })();
    await new Promise((r) => setTimeout(r, 100));
    await db.sql.begin((tx) => appendEvents(tx, sessionId, [{ type: "session.status", data: { status: "running" } }, { type: "noise" }]));
    await db.sql.begin((tx) => appendEvents(tx, sessionId, [{ type: "session.status", data: { status: "idle" } }]));
    await reading;
    abort.abort();
    expect(got).toEqual(["idle", "running", "idle"]);
  });
});
