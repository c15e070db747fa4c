import http from "node:http";
import { createSession } from "@handoff/db";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { createApiHandler } from "../src/handler";
import type { AppRouter } from "../src/index";
import { maxRequestBytes } from "../src/http/request-body";
import { useApi } from "./harness";

const api = useApi({ maxPayloadBytes: 1024 });
const LIMIT = maxRequestBytes(1024);

interface ErrorShape {
  error: { message: string; data: { code: string; httpStatus: number; path: string } };
}

async function inboxRows(sessionId: string): Promise<number> {
  const [row] = await api.pg.db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM inbox_messages WHERE session_id = ${sessionId}`;
  return row!.n;
}

/** POSTs `chunks` to the served API with chunked transfer encoding: no Content-Length to go by. */
function postChunked(path: string, chunks: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${api.url}/api/trpc/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${api.token}` },
    });
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe("request bodies over the limit", () => {
  it("are refused with 413 PAYLOAD_TOO_LARGE in tRPC's shape, whether the length is declared or not, and write nothing", async () => {
    const { sessionId } = await createSession(api.pg.db, { mode: "interactive" });
    const text = "x".repeat(LIMIT);
    const declared = await fetch(`${api.url}/api/trpc/session.prompt`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${api.token}` },
      body: JSON.stringify({ sessionId, text }),
    });
    expect(declared.status).toBe(413);
    const shape = (await declared.json()) as ErrorShape;
    expect(shape.error.data).toMatchObject({ code: "PAYLOAD_TOO_LARGE", httpStatus: 413, path: "session.prompt" });
    expect(shape.error.message).toContain(`request body is over ${LIMIT} bytes`);

    const streamed = await postChunked("session.prompt", [`{"sessionId":"${sessionId}","text":"`, ...Array.from({ length: 20 }, () => "y".repeat(LIMIT / 10)), '"}']);
    expect(streamed.status).toBe(413);
    expect((JSON.parse(streamed.body) as ErrorShape).error.data.code).toBe("PAYLOAD_TOO_LARGE");
    expect(await inboxRows(sessionId)).toBe(0);

    // The server still answers on new connections, and a body under the limit goes through.
    const { messageId } = await api.client().session.prompt.mutate({ sessionId, text: "small" });
    expect(messageId).toMatch(/^msg_/);
    expect(await inboxRows(sessionId)).toBe(1);
  });

  it("reach the tRPC client as a TRPCClientError, one per call of a batch", async () => {
    const { sessionId } = await createSession(api.pg.db, { mode: "interactive" });
    const t = api.client();
    const big = "z".repeat(LIMIT / 2 + 1);
    // httpBatchLink sends both calls in one body, which together pass the limit.
    const results = await Promise.allSettled([
      t.session.prompt.mutate({ sessionId, text: big }),
      t.session.steer.mutate({ sessionId, text: big }),
    ]);
    for (const r of results) {
      expect(r.status).toBe("rejected");
      const error = (r as PromiseRejectedResult).reason as TRPCClientError<AppRouter>;
      expect(error).toBeInstanceOf(TRPCClientError);
      expect(error.data?.code).toBe("PAYLOAD_TOO_LARGE");
      expect(error.message).toContain("request body is over");
    }
    expect(await inboxRows(sessionId)).toBe(0);
  });

  it("are refused the same way by the web app's handler, declared or streamed", async () => {
    const handle = createApiHandler(() => api.context);
    const headers = { "content-type": "application/json", authorization: `Bearer ${api.token}` };
    const url = "http://localhost/api/trpc/session.prompt";
    const declared = await handle(new Request(url, { method: "POST", headers, body: "a".repeat(LIMIT + 1) }));
    const chunk = new TextEncoder().encode("b".repeat(LIMIT / 4));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const streamed = await handle(new Request(url, { method: "POST", headers, body: stream, duplex: "half" } as RequestInit));
    for (const res of [declared, streamed]) {
      expect(res.status).toBe(413);
      expect(((await res.json()) as ErrorShape).error.data).toMatchObject({ code: "PAYLOAD_TOO_LARGE", path: "session.prompt" });
    }
    // The stream was not read to its end: reading stopped past the limit.
    expect(sent).toBeLessThan(8);
  });
});
