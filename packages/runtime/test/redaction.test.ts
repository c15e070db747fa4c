import { readEvents } from "@handoff/db";
import { useTestDatabase } from "@handoff/db/testing";
import { describe, expect, it } from "vitest";
import { body, runPrompt, startHarness } from "./harness";

const pg = useTestDatabase();
const KEY = "sk-test-0123456789abcdefghijklmnop";
const TOKEN = `hnd_${"A".repeat(43)}`;

describe("redaction", () => {
  it("keeps provider keys and API tokens out of events, transcripts and what the model is sent back", async () => {
    const h = await startHarness(
      {
        agents: {
          "*": [
            { toolCalls: [{ name: "write_file", args: { path: "env.txt", content: `OPENAI_API_KEY=${KEY}\nTOKEN=${TOKEN}` } }] },
            { toolCalls: [{ name: "read_file", args: { path: "env.txt" } }] },
            { text: `The key is ${KEY}`, toolCalls: [{ name: "reply", args: { value: "done" } }] },
          ],
        },
      },
      { env: { OPENAI_API_KEY: KEY } },
    );
    const { db } = pg.current;
    const run = await runPrompt(db, h, { prompt: `use token ${TOKEN} please` });
    expect(run.root.replyValue).toBe("done");
    const stored = JSON.stringify([
      await readEvents(db.sql, run.sessionId, 0, 10_000),
      await db.sql`SELECT request, response_text FROM model_steps WHERE session_id = ${run.sessionId}`,
      await db.sql`SELECT args, result FROM tool_calls WHERE session_id = ${run.sessionId}`,
      await db.sql`SELECT content FROM agent_messages WHERE session_id = ${run.sessionId}`,
      await db.sql`SELECT payload FROM inbox_messages WHERE session_id = ${run.sessionId}`,
      await db.sql`SELECT reply_value, partial_text FROM agents WHERE session_id = ${run.sessionId}`,
    ]);
    expect(stored).not.toContain(KEY);
    expect(stored).not.toContain(TOKEN);
    expect(stored).toContain("[redacted]");
    // The file's content came back to the model redacted.
    const third = body(run.steps[2]!).messages.find((m) => m.role === "tool" && String(m.content).includes("OPENAI_API_KEY"));
    expect(String(third?.content)).toContain("OPENAI_API_KEY=[redacted]");
  });
});
