import { createToken } from "@handoff/db";
import { useTestDatabase } from "@handoff/db/testing";
import { builtinProfiles, profileRegistry } from "@handoff/runtime";
import { afterAll, beforeAll } from "vitest";
import { RateLimiter } from "../auth/rate-limiter";
import { TokenVerifier } from "../auth/token-verifier";
import { EventHub } from "../events/event-hub";
import { serveApi, type ServedApi } from "../serve-node";
import type { ServiceContext } from "../trpc";

/**
 * For tests: a database of the file's own, the API served on it over real HTTP, and an admin
 * token of workspace `default`; all closed after the file.
 */
export function useServedApi(limits: Partial<ServiceContext["limits"]> = {}, options: { requestsPerMinute?: number } = {}) {
  const pg = useTestDatabase();
  let served: ServedApi | undefined;
  let context: ServiceContext | undefined;
  let token = "";
  beforeAll(async () => {
    const db = pg.current.db;
    context = {
      db,
      hub: new EventHub(db),
      profiles: profileRegistry(new Map(Object.entries(builtinProfiles))),
      tokens: new TokenVerifier(db),
      rateLimiter: new RateLimiter(options.requestsPerMinute ?? 100_000),
      limits: { maxPayloadBytes: 256 * 1024, eventsPageSize: 100, leaseTtlMs: 10_000, ...limits },
    };
    token = (await createToken(db, { role: "admin", workspaceId: "default" })).token;
    served = await serveApi(context);
  });
  afterAll(async () => {
    await served?.close();
  });
  return {
    get pg() {
      return pg.current;
    },
    get url() {
      return served!.url;
    },
    get context() {
      return context!;
    },
    get token() {
      return token;
    },
  };
}
