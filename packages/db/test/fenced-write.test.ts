import { describe, expect, it } from "vitest";
import { createSession, fencedWrite, readEvents, sqlPart, type Lease } from "../src/index";
import { useTestDatabase } from "../src/testing/index";

const pg = useTestDatabase();

async function leased(epoch: number): Promise<Lease> {
  const { db } = pg.current;
  const { sessionId } = await createSession(db, { mode: "headless" });
  await db.sql`UPDATE sessions SET lease_epoch = ${epoch} WHERE id = ${sessionId}`;
  return { sessionId, epoch, workerId: "wrk_test" };
}

describe("fencedWrite", () => {
  it("writes, appends its events in order and notifies, in one statement under the lease", async () => {
    const { db } = pg.current;
    const lease = await leased(3);
    const heard: string[] = [];
    const listener = await db.sql.listen("handoff_events", (payload) => heard.push(payload));
    try {
      const { seqs, row } = await fencedWrite<{ title: string }>(db.sql, lease, {
        writes: [sqlPart`UPDATE agents a SET model_steps = a.model_steps + 1 FROM fence WHERE a.session_id = ${lease.sessionId}`],
        events: [{ type: "test.one" }, { type: "test.two", data: { n: 2 } }],
        select: sqlPart`(SELECT 'from the snapshot'::text) AS "title"`,
      });
      expect(row.title).toBe("from the snapshot");
      const events = await readEvents(db.sql, lease.sessionId, 0, 100);
      expect(events.slice(-2).map((e) => [e.seq, e.type, e.data])).toEqual([
        [seqs[0], "test.one", {}],
        [seqs[1], "test.two", { n: 2 }],
      ]);
      const [agent] = await db.sql<{ modelSteps: number }[]>`
        SELECT model_steps AS "modelSteps" FROM agents WHERE session_id = ${lease.sessionId}`;
      expect(agent!.modelSteps).toBe(1);
      await expect.poll(() => heard).toContain(`${lease.sessionId}:${seqs[1]}`);
    } finally {
      await listener.unlisten();
    }
  });

  it("refuses a stale lease epoch with FENCED and writes nothing, not even its events", async () => {
    const { db } = pg.current;
    const lease = await leased(7);
    const before = await readEvents(db.sql, lease.sessionId, 0, 100);
    await expect(
      fencedWrite(db.sql, { ...lease, epoch: 6 }, {
        writes: [sqlPart`UPDATE agents a SET model_steps = 99 FROM fence WHERE a.session_id = ${lease.sessionId}`],
        events: [{ type: "stale" }],
      }),
    ).rejects.toMatchObject({ code: "FENCED", details: { currentEpoch: 7 } });
    expect(await readEvents(db.sql, lease.sessionId, 0, 100)).toEqual(before);
    const [agent] = await db.sql<{ modelSteps: number }[]>`
      SELECT model_steps AS "modelSteps" FROM agents WHERE session_id = ${lease.sessionId}`;
    expect(agent!.modelSteps).toBe(0);
  });
});
