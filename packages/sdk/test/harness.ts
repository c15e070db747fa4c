import { createToken } from "@handoff/db";
import { useTestDatabase } from "@handoff/db/testing";
import { builtinProfiles, profileRegistry } from "@handoff/runtime";
import { Handoff } from "../src/index";
import { EventSource } from "eventsource";
import { afterAll, beforeAll } from "vitest";
import { EventHub, RateLimiter, serveApi, TokenVerifier, type ServedApi, type ServiceContext } from "@handoff/api";

/** A test database, the API served over real HTTP on it, and an SDK client; all closed after the file. */
export function useApi(limits: Partial<ServiceContext["limits"]> = {}, options: { requestsPerMinute?: number } = {}) {
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
    /** An admin token of the `default` workspace. */
    get token() {
      return token;
    },
    client(url?: string) {
      return new Handoff({ url: url ?? served!.url, token, EventSource });
    },
  };
}
