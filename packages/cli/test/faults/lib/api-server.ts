/**
 * The API as its own process, for fault tests that kill it: the same `/api/trpc` handler and
 * per-process context the web app builds (one pool, one LISTEN connection for the event
 * fan-out, tokens, rate limits), served by `serveApi` on PORT. Prints `listening <url>`.
 */
import path from "node:path";
import { EventHub, RateLimiter, serveApi, TokenVerifier } from "@handoff/api";
import { createDb } from "@handoff/db";
import { loadProfiles } from "@handoff/runtime";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL is required");
const db = createDb(url, { max: 10, applicationName: "handoff-web" });
const served = await serveApi(
  {
    db,
    hub: new EventHub(db),
    tokens: new TokenVerifier(db),
    rateLimiter: new RateLimiter(100_000),
    profiles: await loadProfiles(path.resolve(process.env.HANDOFF_AGENTS_DIR ?? "agents")),
    limits: { maxPayloadBytes: 256 * 1024, eventsPageSize: 100, leaseTtlMs: 1000 },
  },
  { port: Number(process.env.PORT ?? 0) },
);
process.stdout.write(`listening ${served.url}\n`);
process.on("SIGTERM", () => {
  void served
    .close()
    .then(() => db.close())
    .finally(() => process.exit(0));
});
