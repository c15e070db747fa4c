import { createToken } from "@handoff/db";
import { freePort, useTestDatabase, waitFor } from "@handoff/db/testing";
import type { Step } from "@handoff/model-sim";
import { Handoff } from "@handoff/sdk";
import { EventSource } from "eventsource";
import { describe, expect, it, onTestFinished } from "vitest";
import { spawnApi } from "./lib/api-process";
import { auditRuns } from "./lib/audit";
import { expectSurvived } from "./lib/results";
import { waitForRest } from "./lib/runs";
import { expectWholeStreams, streamNewSessions, streamsEnded } from "./lib/streams";
import { startStage } from "./lib/stage";

const pg = useTestDatabase();

/** About four seconds of steady events: a directory listing every 250 ms, then the reply. */
const paced: Step[] = [
  ...Array.from({ length: 14 }, (): Step => ({ text: "Looking around.", toolCalls: [{ name: "list_files", args: {} }], delayMs: 250 })),
  { toolCalls: [{ name: "reply", args: { value: "done" } }] },
];

/** Sessions streamed at once through the web process that is killed. */
const RUNS = 3;

describe("the web process SIGKILLed while an SDK client streams", () => {
  it("comes back on the same port and every stream resumes with no gap and no duplicate", async () => {
    const { db } = pg.current;
    const stage = await startStage({ databaseUrl: pg.current.url, scenario: { agents: { general: paced } } });
    // What `npx handoff token create --role admin --workspace default` prints.
    const { token } = await createToken(db, { role: "admin", workspaceId: "default" });
    const port = await freePort();
    const api = await spawnApi(stage.env, port);
    const worker = stage.worker();
    const handoff = new Handoff({ url: api.url, token, EventSource });

    const abort = new AbortController();
    onTestFinished(() => abort.abort());
    const streams = await streamNewSessions(handoff, RUNS, abort.signal);
    await Promise.all(streams.map((s) => handoff.prompt(s.sessionId, "go")));
    await waitFor("every stream to be under way", () => streams.every((s) => s.seen.length >= 12));
    await api.kill();
    const cut = streams.map((s) => s.seen.length);
    const ids = streams.map((s) => s.sessionId);
    // The worker goes on appending events while no web process serves them.
    await waitFor("more events while the web process is down", async () => {
      const rows = await db.sql<{ id: string; lastSeq: number }[]>`SELECT id, last_seq AS "lastSeq" FROM sessions WHERE id = ANY(${ids}::text[])`;
      return streams.every((s, i) => rows.find((r) => r.id === s.sessionId)!.lastSeq > cut[i]! + 3);
    });
    const restarted = await spawnApi(stage.env, port, "api (restarted)");
    expect(restarted.url).toBe(api.url);

    await waitForRest(db, ids, [worker, restarted]);
    await streamsEnded(streams);
    abort.abort();
    expect(await worker.stop()).toBe(0);

    const audit = await auditRuns(db, ids.map((sessionId) => ({ sessionId, stops: { general: "reply" } })));
    streams.forEach((s, i) => expect(s.seen.length, s.sessionId).toBeGreaterThan(cut[i]!));
    expectWholeStreams(audit, streams);
    expectSurvived("web process SIGKILL while an SDK client streams", 1, audit);
  });
});
