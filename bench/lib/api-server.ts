/**
 * A web process for the benchmarks, in a process of its own so that the load generator's
 * CPU is not the server's: `tsx bench/lib/api-server.ts api|relay DATABASE_URL`.
 *
 * - `api`: the tRPC API as the web app mounts it (`serveApi`), with the web app's pool size
 *   (10), its one LISTEN connection (`EventHub`) and token checks; the rate limit is lifted
 *   (one benchmark token sends thousands of requests a second).
 * - `floor`: the least an HTTP hop to a web process can cost on this machine — a bare Node HTTP
 *   server that answers `POST /api/trpc/session.prompt` with the raw `INSERT …; NOTIFY` of
 *   the admission baseline; no tRPC, no token, no validation beyond JSON.
 * - `relay`: the physical limit of fan-out on this machine — one LISTEN connection whose
 *   notifications are written as they are to every open SSE response; no database read,
 *   no tRPC. `GET /clients` says how many are connected.
 *
 * Prints one JSON line `{ "url": … }` when listening; stops on SIGTERM.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createDb, EVENTS_CHANNEL, newId } from "@handoff/db";
import { EventHub, RateLimiter, serveApi, TokenVerifier } from "@handoff/api";
import { builtinProfiles, profileRegistry } from "@handoff/runtime";
import { rawAdmission } from "./raw-admission";

const [mode, databaseUrl] = process.argv.slice(2);
if ((mode !== "api" && mode !== "floor" && mode !== "relay") || !databaseUrl) {
  process.stderr.write("usage: api-server.ts api|floor|relay DATABASE_URL\n");
  process.exit(2);
}

const db = createDb(databaseUrl, { max: 10, applicationName: mode === "api" ? "handoff-web" : `bench-${mode}` });
let close: () => Promise<void>;

if (mode === "api") {
  const served = await serveApi({
    db,
    hub: new EventHub(db),
    profiles: profileRegistry(new Map(Object.entries(builtinProfiles))),
    tokens: new TokenVerifier(db),
    rateLimiter: new RateLimiter(Number.MAX_SAFE_INTEGER),
    // The web app's defaults (apps/web/src/env.ts).
    limits: { maxPayloadBytes: 256 * 1024, eventsPageSize: 500, leaseTtlMs: 10_000 },
  });
  close = served.close;
  console.log(JSON.stringify({ url: served.url }));
} else if (mode === "floor") {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const { sessionId, text } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { sessionId: string; text: string };
      const messageId = newId("msg");
      rawAdmission(db, messageId, sessionId, text).then(
        () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ result: { data: { messageId } } })),
        (e: Error) => res.writeHead(500).end(e.message),
      );
    });
  });
  close = await listen(server);
} else {
  const clients = new Set<import("node:http").ServerResponse>();
  await db.sql.listen(EVENTS_CHANNEL, (payload) => {
    const frame = `data: ${JSON.stringify({ payload })}\n\n`;
    for (const res of clients) res.write(frame);
  });
  const server = createServer((req, res) => {
    if (req.url === "/clients") return void res.end(String(clients.size));
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    res.write(": connected\n\n");
    clients.add(res);
    res.on("close", () => clients.delete(res));
  });
  close = await listen(server);
}

/** Listens on a free loopback port, prints the ready line, and returns how to close. */
async function listen(server: Server): Promise<() => Promise<void>> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}

process.once("SIGTERM", () => {
  void (async () => {
    await close();
    await db.close();
    process.exit(0);
  })();
});
