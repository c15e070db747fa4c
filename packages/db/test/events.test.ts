import { describe, expect, it } from "vitest";
import { appendEvents, createSession, readEvents } from "../src/index";
import { useTestDatabase } from "../src/testing/index";

const pg = useTestDatabase();

describe("event log", () => {
  it("gives 16 concurrent writers of 500 events each exactly the seqs 1..8000", async () => {
    const { db } = pg.current;
    const { sessionId } = await createSession(db, { mode: "headless" });
    // The session opens with its own event; count from there.
    const start = (await db.sql<{ start: number }[]>`SELECT last_seq AS start FROM sessions WHERE id = ${sessionId}`)[0]!.start;
    const writers = Array.from({ length: 16 }, (_, w) =>
      (async () => {
        for (let i = 0; i < 500; i++) {
          await db.sql.begin((tx) => appendEvents(tx, sessionId, [{ type: "test.write", data: { w, i } }]));
        }
      })(),
    );
    await Promise.all(writers);
    const rows = await db.sql<{ seq: number }[]>`
      SELECT seq FROM events WHERE session_id = ${sessionId} AND type = 'test.write' ORDER BY seq`;
    expect(rows).toHaveLength(8000);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 8000 }, (_, i) => start + 1 + i));
    const all = await readEvents(db.sql, sessionId, 0, 10_000);
    expect(all.map((e) => e.seq)).toEqual(Array.from({ length: 8001 }, (_, i) => i + 1));
  }, 180_000);

  it("gives back the numbers of a rolled-back append, leaving no gap", async () => {
    const { db } = pg.current;
    const { sessionId } = await createSession(db, { mode: "interactive" });
    await expect(
      db.sql.begin(async (tx) => {
        await appendEvents(tx, sessionId, [{ type: "a" }, { type: "b" }]);
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    await db.sql.begin((tx) => appendEvents(tx, sessionId, [{ type: "c", data: { note: "kept as an object" } }]));
    const events = await readEvents(db.sql, sessionId);
    expect(events.map((e) => [e.seq, e.type])).toEqual([
      [1, "session.create"],
      [2, "c"],
    ]);
    expect(events[1]!.data).toEqual({ note: "kept as an object" });
  });

  it("notifies listeners only after the append commits", async () => {
    const { db } = pg.current;
    const { sessionId } = await createSession(db, { mode: "interactive" });
    const heard: string[] = [];
    const listener = await db.sql.listen("handoff_events", (payload) => heard.push(payload));
    try {
      await db.sql.begin(async (tx) => {
        await appendEvents(tx, sessionId, [{ type: "x" }]);
        await new Promise((r) => setTimeout(r, 100));
        expect(heard.filter((h) => h.startsWith(sessionId))).toEqual([]);
      });
      await expect.poll(() => heard.filter((h) => h.startsWith(sessionId))).toEqual([`${sessionId}:2`]);
    } finally {
      await listener.unlisten();
    }
  });

  it("refuses an append under a stale lease epoch and writes nothing", async () => {
    const { db } = pg.current;
    const { sessionId } = await createSession(db, { mode: "interactive" });
    await db.sql`UPDATE sessions SET lease_epoch = 7 WHERE id = ${sessionId}`;
    await expect(
      db.sql.begin((tx) => appendEvents(tx, sessionId, [{ type: "stale" }], { epoch: 6 })),
    ).rejects.toMatchObject({ code: "FENCED", details: { currentEpoch: 7 } });
    await db.sql.begin((tx) => appendEvents(tx, sessionId, [{ type: "fresh" }], { epoch: 7 }));
    expect((await readEvents(db.sql, sessionId)).map((e) => e.type)).toEqual(["session.create", "fresh"]);
  });
});
