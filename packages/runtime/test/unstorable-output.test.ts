import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@handoff/db/testing";
import { body, runPrompt, startHarness } from "./harness";

const pg = useTestDatabase();

describe("model output Postgres cannot store", () => {
  it("is recorded with U+FFFD for NUL and unpaired surrogates, and the run ends as it would have", async () => {
    const h = await startHarness({
      agents: {
        general: [
          { text: "before\u0000after \ud800 end", toolCalls: [{ name: "todo_write", args: { todos: [{ id: "1", content: "check\u0000it", status: "completed" }] } }] },
          { toolCalls: [{ name: "reply", args: { value: { "k\u0000ey": "done\u0000", list: ["\udc00"] } } }] },
        ],
      },
    });
    const run = await runPrompt(pg.current.db, h, { prompt: "go" });
    // Recorded once, not redone: two model steps, then the reply ends the agent.
    expect(run.root).toMatchObject({ status: "done", stopReason: "reply", modelSteps: 2 });
    expect(run.steps).toHaveLength(2);
    expect(run.root.replyValue).toEqual({ "k\ufffdey": "done\ufffd", list: ["\ufffd"] });
    const [todo] = await pg.current.db.sql<{ content: string }[]>`
      SELECT content FROM todos t JOIN agents a ON a.id = t.agent_id WHERE a.session_id = ${run.sessionId}`;
    expect(todo?.content).toBe("check\ufffdit");
    // The model was sent back the text as recorded.
    const assistant = body(run.steps[1]!).messages.find((m) => m.role === "assistant");
    expect(assistant?.content).toBe("before\ufffdafter \ufffd end");
  });
});
