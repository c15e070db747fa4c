import { TRPCClientError } from "@trpc/client";
import { appendEvents, createSession } from "@handoff/db";
import { EventSource } from "eventsource";
import { describe, expect, it } from "vitest";
import { Handoff } from "../src/index";
import { useApi } from "./harness";
import { tcpProxy } from "./tcp-proxy";

const api = useApi();

/** The `eventsource` EventSource, remembering every instance it opened. */
function recordingEventSource(onOpen: () => void = () => {}) {
  const opened: EventSource[] = [];
  class Recording extends EventSource {
    constructor(...args: ConstructorParameters<typeof EventSource>) {
      super(...args);
      opened.push(this);
      onOpen();
    }
  }
  return { EventSource: Recording, opened };
}

/** The error a stream ends with, through the SDK's reader and through tRPC's own client (what callers got before). */
async function refusals(client: Handoff, sessionId: string) {
  let sdk: unknown;
  try {
    for await (const _ of client.events(sessionId)) throw new Error("an item of a refused stream");
  } catch (e) {
    sdk = e;
  }
  const trpc = await new Promise<unknown>((resolve) => {
    const sub = client.trpc.session.events.subscribe(
      { sessionId, lastEventId: null },
      {
        onError: (e) => (sub.unsubscribe(), resolve(e)),
        onData: () => (sub.unsubscribe(), resolve(new Error("an item of a refused stream"))),
      },
    );
  });
  return { sdk, trpc };
}

describe("the SDK's SSE reader", () => {
  it.each([
    ["NOT_FOUND", () => api.token, "ses_00000000000000000000000000"],
    ["BAD_REQUEST", () => api.token, "not a session id"],
    ["UNAUTHORIZED", () => "hnd_not-a-token", null],
  ])("ends the iterator on a %s serialized-error with the TRPCClientError tRPC's client threw", async (code, token, sessionId) => {
    const session = sessionId ?? (await createSession(api.pg.db, { mode: "interactive" })).sessionId;
    const client = new Handoff({ url: api.url, token: token(), EventSource });
    const { sdk, trpc } = await refusals(client, session);
    expect(sdk).toBeInstanceOf(TRPCClientError);
    expect(trpc).toBeInstanceOf(TRPCClientError);
    const a = sdk as TRPCClientError<never>;
    const b = trpc as TRPCClientError<never>;
    expect(a.data).toMatchObject({ code });
    expect({ message: a.message, data: a.data, shape: a.shape }).toEqual({ message: b.message, data: b.data, shape: b.shape });
  });

  it("closes the EventSource and ends a waiting iterator when the signal aborts", async () => {
    const { sessionId } = await createSession(api.pg.db, { mode: "interactive" });
    const recording = recordingEventSource();
    const client = new Handoff({ url: api.url, token: api.token, EventSource: recording.EventSource });
    const abort = new AbortController();
    const stream = client.events(sessionId, { signal: abort.signal });
    expect((await stream.next()).value).toMatchObject({ seq: 1 });
    const waiting = stream.next();
    setTimeout(() => abort.abort(), 50);
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(recording.opened.map((es) => es.readyState)).toEqual([EventSource.CLOSED]);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it("closes the EventSource when the caller stops iterating", async () => {
    const { sessionId } = await createSession(api.pg.db, { mode: "interactive" });
    const recording = recordingEventSource();
    const client = new Handoff({ url: api.url, token: api.token, EventSource: recording.EventSource });
    for await (const s of client.status(sessionId)) {
      expect(s).toEqual({ status: "idle", seq: 1 });
      break;
    }
    expect(recording.opened.map((es) => es.readyState)).toEqual([EventSource.CLOSED]);
  });

  it("reopens a stream on which nothing arrived for the inactivity bound, resuming after the last item", async () => {
    const { db } = api.pg;
    const { sessionId } = await createSession(db, { mode: "interactive" });
    const proxy = await tcpProxy(Number(new URL(api.url).port));
    const seen: number[] = [];
    const lastSeenAtOpen: (number | undefined)[] = [];
    const recording = recordingEventSource(() => lastSeenAtOpen.push(seen.at(-1)));
    const client = new Handoff({ url: proxy.url, token: api.token, EventSource: recording.EventSource, reconnectAfterInactivityMs: 500 });
    const abort = new AbortController();
    const reading = (async () => {
      for await (const e of client.events(sessionId, { signal: abort.signal })) {
        seen.push(e.seq);
        if (e.seq >= 1 + 20) break;
      }
    })();
    for (let i = 0; i < 20; i++) {
      await db.sql.begin((tx) => appendEvents(tx, sessionId, [{ type: "test.tick", data: { i } }]));
      // A silent stall (no reset, no close): only the inactivity bound notices it.
      if (i === 9) {
        await new Promise((r) => setTimeout(r, 100));
        proxy.stall();
      }
    }
    await reading;
    abort.abort();
    expect(seen).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    expect(recording.opened).toHaveLength(2);
    // The reopened stream asked for what followed the last item seen.
    expect(lastSeenAtOpen[1]).toBeGreaterThanOrEqual(10);
    expect(JSON.parse(new URL(recording.opened[1]!.url).searchParams.get("input")!)).toEqual({ sessionId, lastEventId: String(lastSeenAtOpen[1]) });
  });
});
