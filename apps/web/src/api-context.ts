import path from "node:path";
import { EventHub, RateLimiter, TokenVerifier, type ServiceContext } from "@handoff/api";
import { loadProfiles } from "@handoff/runtime";
import { db } from "./db";
import { env } from "./env";

const globalForApi = globalThis as unknown as { handoffApi?: Promise<ServiceContext> };

/** One context per web process: its pool, its one LISTEN connection (the hub), the profiles. */
export function apiContext(): Promise<ServiceContext> {
  globalForApi.handoffApi ??= (async () => {
    const e = env();
    return {
      db: db(),
      hub: new EventHub(db()),
      tokens: new TokenVerifier(db()),
      rateLimiter: new RateLimiter(e.HANDOFF_RATE_LIMIT_PER_MINUTE),
      profiles: await loadProfiles(path.resolve(e.HANDOFF_AGENTS_DIR)),
      limits: {
        maxPayloadBytes: e.HANDOFF_MAX_PAYLOAD_BYTES,
        eventsPageSize: e.HANDOFF_EVENTS_PAGE_SIZE,
        leaseTtlMs: e.HANDOFF_LEASE_TTL_MS,
      },
    };
  })();
  return globalForApi.handoffApi;
}
