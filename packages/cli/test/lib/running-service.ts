import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { EventHub, RateLimiter, serveApi, TokenVerifier, type ServedApi } from "@handoff/api";
import { createToken } from "@handoff/db";
import { useTestDatabase } from "@handoff/db/testing";
import { createModelSim, type ModelSim } from "@handoff/model-sim";
import { createRuntime, runtimeEnv, type RuntimeHandle } from "@handoff/runtime";
import { startWorker, type RunningWorker } from "@handoff/worker";
import { afterAll, beforeAll } from "vitest";

/**
 * A running service for `--url` tests, as `handoff start` runs one: the API over HTTP and a
 * worker pool with the agent runtime, on the file's own database, with model-sim (scenario
 * set per test) and an operator token. Closed after the file.
 */
export function useRunningService(label: string) {
  const pg = useTestDatabase();
  let dataDir = "";
  let sim: ModelSim | undefined;
  let runtime: RuntimeHandle | undefined;
  let served: ServedApi | undefined;
  let worker: RunningWorker | undefined;
  let token = "";
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), `handoff-${label}-`));
    sim = await createModelSim({ scenario: { agents: {} } });
    const db = pg.current.db;
    runtime = await createRuntime(runtimeEnv({ ...process.env, HANDOFF_DATA_DIR: dataDir }));
    served = await serveApi({
      db,
      hub: new EventHub(db),
      profiles: runtime.runtime.profiles,
      tokens: new TokenVerifier(db),
      rateLimiter: new RateLimiter(100_000),
      limits: { maxPayloadBytes: 256 * 1024, eventsPageSize: 100, leaseTtlMs: 10_000 },
    });
    worker = await startWorker({ databaseUrl: pg.current.url, concurrency: 2, driver: runtime.driver, pollMs: 500, logLevel: "silent" });
    token = (await createToken(db, { role: "operator", workspaceId: "default" })).token;
  });
  afterAll(async () => {
    await worker?.drain();
    await served?.close();
    await runtime?.close();
    await sim?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return {
    get pg() {
      return pg.current;
    },
    get dataDir() {
      return dataDir;
    },
    get sim() {
      return sim!;
    },
    get served() {
      return served!;
    },
    get worker() {
      return worker!;
    },
    get token() {
      return token;
    },
  };
}
