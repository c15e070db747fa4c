import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createDb, createToken, runMigrations, startEmbeddedPostgres, type Db, type EmbeddedHandle } from "@handoff/db";
import { freePort, waitFor } from "@handoff/db/testing";
import type { Step } from "@handoff/model-sim";
import { Handoff } from "@handoff/sdk";
import { EventSource } from "eventsource";
import { describe, expect, it, onTestFinished } from "vitest";
import { spawnApi } from "./lib/api-process";
import { auditRuns } from "./lib/audit";
import { expectSurvived } from "./lib/results";
import { appendStep, waitForRest } from "./lib/runs";
import { expectWholeStreams, streamNewSessions, streamsEnded } from "./lib/streams";
import { startStage } from "./lib/stage";

/**
 * A step lost to the outage (its response never recorded) is redone and plays the next step
 * of the script; the reply repeats, so however many steps are lost, each run ends replying.
 */
const script: Step[] = [
  { toolCalls: [appendStep("one")], delayMs: 300 },
  { toolCalls: [{ name: "list_files", args: {} }], delayMs: 800 },
  { toolCalls: [{ name: "list_files", args: {} }], delayMs: 800 },
  { toolCalls: [{ name: "reply", args: { value: "done" } }], repeatForever: true },
];

const SESSIONS = 6;

/*
 * Known upstream bug, seen here in 3 runs of 20: postgres-js 3.4.9 (the latest) can
 * throw an uncatchable TypeError from a setImmediate when a connection closes with a small
 * write queued (porsager/postgres#1154, #1208). A worker hit by it exits, and this test fails
 * saying "worker N exited on its own" with that stack. Its default reconnect backoff (up to 20 s,
 * shared by the pool, growing with every failed attempt during the outage) is why runs take a
 * while to resume after the restart.
 */

/** A PostgreSQL of the test's own, so it can be stopped and started again on the same data directory and port. */
async function ownPostgres(): Promise<{ url: string; stop(): Promise<void>; start(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "handoff-pg-restart-"));
  const port = await freePort();
  const options = { dir: path.join(dir, "pg"), port, database: "handoff" };
  let server: EmbeddedHandle | null = await startEmbeddedPostgres(options);
  onTestFinished(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });
  await runMigrations(server.url);
  return {
    url: server.url,
    async stop() {
      await server?.stop();
      server = null;
    },
    async start() {
      server = await startEmbeddedPostgres(options);
    },
  };
}

describe("PostgreSQL restarted during runs", () => {
  it("workers and the API reconnect, every run finishes, and streams resume with no gap", { timeout: 180_000 }, async () => {
    const pg = await ownPostgres();
    let db: Db = createDb(pg.url, { max: 4, applicationName: "handoff-test" });
    onTestFinished(() => db.close());
    const stage = await startStage({ databaseUrl: pg.url, scenario: { agents: { general: script } }, env: { HANDOFF_LEASE_TTL_MS: "2000" } });
    const { token } = await createToken(db, { role: "admin", workspaceId: "default" });
    const api = await spawnApi(stage.env, await freePort());
    const workers = [stage.worker({ name: "worker 1" }), stage.worker({ name: "worker 2" })];
    const handoff = new Handoff({ url: api.url, token, EventSource });

    const abort = new AbortController();
    onTestFinished(() => abort.abort());
    const sessions = await streamNewSessions(handoff, SESSIONS, abort.signal);
    await Promise.all(sessions.map((s, i) => handoff.prompt(s.sessionId, `run ${i}`)));
    const ids = sessions.map((s) => s.sessionId);
    await waitFor("every run to be in a model step or a tool call", async () => {
      const [row] = await db.sql<{ n: number }[]>`
        SELECT count(DISTINCT session_id)::int AS n FROM model_steps WHERE session_id = ANY(${ids}::text[])`;
      return row!.n === SESSIONS;
    });

    // Fast shutdown: every connection is terminated, transactions in flight roll back.
    await db.close();
    await pg.stop();
    await new Promise((r) => setTimeout(r, 1500));
    await pg.start();
    db = createDb(pg.url, { max: 4, applicationName: "handoff-test" });

    await waitForRest(db, ids, [...workers, api], 90_000);
    await streamsEnded(sessions);
    abort.abort();
    // The API answers again after the restart.
    expect((await handoff.trpc.session.get.query({ sessionId: ids[0]! })).status).toBe("ended");
    for (const w of workers) expect(await w.stop(), w.name).toBe(0);

    const audit = await auditRuns(db, ids.map((sessionId) => ({ sessionId, stops: { general: "reply" } })));
    expectWholeStreams(audit, sessions);
    expectSurvived("PostgreSQL restarted during runs", 1, audit);
  });
});
