import { createSession, enqueue, readEvents, requestSessionCancel } from "@handoff/db";
import { useTestDatabase } from "@handoff/db/testing";
import { describe, expect, it } from "vitest";
import { ownSession } from "../src/index";
import { agentFacts, startHarness } from "./harness";

const pg = useTestDatabase();

describe("whole-session cancel", () => {
  it("aborts the running turn, cancels queued messages, and leaves an interactive session ready for the next prompt", async () => {
    const { db } = pg.current;
    const h = await startHarness({
      agents: { "*": [{ text: "thinking very slowly", delayMs: 10_000 }, { text: "Fresh answer." }] },
    });
    const { sessionId, rootAgentId } = await createSession(db, { mode: "interactive" });
    const owner = (await ownSession(db, sessionId, h.runtime.driver))!;
    const limits = { maxPayloadBytes: 1 << 20 };
    await enqueue(db, { sessionId, kind: "prompt", payload: { text: "slow one" } }, limits);
    const driving = owner.driveToIdle();
    await expect.poll(async () => (await readEvents(db.sql, sessionId)).some((e) => e.type === "model-step.start")).toBe(true);
    const later = await enqueue(db, { sessionId, kind: "followup", payload: { text: "queued behind it" } }, limits);
    const cancel = await requestSessionCancel(db, sessionId);
    expect(cancel).toEqual({ cancelledMessages: [later.messageId], runningTurns: 1 });
    await driving;

    expect(await agentFacts(db, rootAgentId)).toMatchObject({ status: "idle", stopReason: "cancelled", verdict: "INCOMPLETE" });
    const [session] = await db.sql`SELECT status FROM sessions WHERE id = ${sessionId}`;
    expect(session!.status).toBe("idle");
    const [msg] = await db.sql`SELECT state FROM inbox_messages WHERE id = ${later.messageId}`;
    expect(msg!.state).toBe("cancelled");

    // The session takes the next prompt as usual.
    await enqueue(db, { sessionId, kind: "followup", payload: { text: "again" } }, limits);
    await owner.driveToIdle();
    await owner.release();
    expect(await agentFacts(db, rootAgentId)).toMatchObject({ status: "idle", stopReason: "end_turn" });
    const types = (await readEvents(db.sql, sessionId)).map((e) => e.type);
    expect(types.filter((t) => t === "session.cancel")).toHaveLength(1);
    expect(types.filter((t) => t === "turn.end")).toHaveLength(2);
  });

  it("cancels a headless session whose prompt was never admitted", async () => {
    const { db } = pg.current;
    const { sessionId } = await createSession(db, { mode: "headless" });
    await enqueue(db, { sessionId, kind: "prompt", payload: { text: "x" } }, { maxPayloadBytes: 1024 });
    const cancel = await requestSessionCancel(db, sessionId);
    expect(cancel.runningTurns).toBe(0);
    const [session] = await db.sql`SELECT status FROM sessions WHERE id = ${sessionId}`;
    expect(session!.status).toBe("cancelled");
    await expect(requestSessionCancel(db, "ses_nope")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
