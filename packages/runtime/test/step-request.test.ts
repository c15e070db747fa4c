import { useTestDatabase } from "@handoff/db/testing";
import type { Db } from "@handoff/db";
import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { expandRequest } from "../src/session/step-request";
import { body, runPrompt, startHarness, type RunOutcome } from "./harness";

const pg = useTestDatabase();

/** Each step's recorded request, expanded against the agent's stored history as the inspector does. */
async function recordedRequests(db: Db, run: RunOutcome) {
  const steps = await db.sql<{ request: unknown }[]>`
    SELECT request FROM model_steps WHERE agent_id = ${run.rootAgentId} ORDER BY started_at`;
  const history = await db.sql<{ content: ModelMessage }[]>`
    SELECT content FROM agent_messages WHERE agent_id = ${run.rootAgentId} ORDER BY id`;
  return {
    stored: steps.map((s) => s.request as Record<string, unknown>),
    sent: steps.map((s) => expandRequest(s.request, history.map((h) => h.content))!),
  };
}

/** Roles in order, and the text of system and user messages: comparable across the wire format. */
function shape(messages: { role: string; content?: unknown }[]) {
  return messages.map((m) => ({ role: m.role, text: m.role === "system" || m.role === "user" ? m.content : null }));
}

function sentShape(system: string | undefined, messages: ModelMessage[]) {
  return shape([{ role: "system", content: system }, ...messages]);
}

describe("model_steps.request", () => {
  it("records each request by reference to the history, and expands to exactly what the model was sent", async () => {
    const h = await startHarness({
      agents: {
        "*": [
          { toolCalls: [{ name: "list_files", args: { path: "." } }] },
          { text: "no reply yet" },
          { toolCalls: [{ name: "reply", args: { value: "done" } }] },
        ],
      },
    });
    const run = await runPrompt(pg.current.db, h, { prompt: "look around, then reply" });
    expect(run.root.replyValue).toBe("done");
    const { stored, sent } = await recordedRequests(pg.current.db, run);
    expect(sent).toHaveLength(3);
    // No step stores the conversation again: it only grows by reference.
    for (const s of stored) expect(s).not.toHaveProperty("messages");
    expect(stored.map((s) => s.history)).toEqual([1, 3, 5]);
    sent.forEach((request, i) => {
      const wire = body(run.steps[i]!);
      expect(shape(wire.messages)).toEqual(sentShape(request.system, request.messages));
      expect(request.tools).toEqual((wire.tools ?? []).map((t) => t.function.name));
    });
    // The nudge is in the third request, as a user message after the prose answer.
    expect(sent[2]!.messages.at(-1)).toMatchObject({ role: "user" });
  });

  it("expands the capped request of an interactive root flattened, with the cap instruction last", async () => {
    const h = await startHarness({
      agents: { "*": [{ toolCalls: [{ name: "list_files", args: { path: "." } }] }, { text: "Final answer." }] },
    });
    const run = await runPrompt(pg.current.db, h, { prompt: "look around", mode: "interactive", maxSteps: 2 });
    const { stored, sent } = await recordedRequests(pg.current.db, run);
    expect(stored[1]).toMatchObject({ flattened: true, toolChoice: "none", tools: [] });
    const wire = body(run.steps[1]!);
    expect(wire.tool_choice).toBe("none");
    expect(shape(wire.messages)).toEqual(sentShape(sent[1]!.system, sent[1]!.messages));
    expect(sent[1]!.messages.at(-1)).toMatchObject({ role: "user", content: expect.stringContaining("MAXIMUM STEPS REACHED") });
    expect(JSON.stringify(sent[1]!.messages)).toContain("[called tool list_files");
  });
});
