import { useTestDatabase } from "@handoff/db/testing";
import { builtinProfiles, profileRegistry } from "@handoff/runtime";
import { Handoff } from "../src/index";
import { EventSource } from "eventsource";
import { afterAll, beforeAll } from "vitest";
import { EventHub, serveApi, type ApiContext, type ServedApi } from "@handoff/api";

/** A test database, the API served over real HTTP on it, and an SDK client; all closed after the file. */
export function useApi(limits: Partial<ApiContext["limits"]> = {}) {
  const pg = useTestDatabase();
  let served: ServedApi | undefined;
  let context: ApiContext | undefined;
  beforeAll(async () => {
    const db = pg.current.db;
    context = {
      db,
      hub: new EventHub(db),
      profiles: profileRegistry(new Map(Object.entries(builtinProfiles))),
      limits: { maxPayloadBytes: 256 * 1024, eventsPageSize: 100, leaseTtlMs: 10_000, ...limits },
    };
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
    client(url?: string) {
      return new Handoff({ url: url ?? served!.url, EventSource });
    },
  };
}
