import { getBuiltinScenario } from "@handoff/model-sim";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@handoff/db/testing";
import { body, lastMessage, runPrompt, startHarness, toolNames } from "./harness";

const pg = useTestDatabase();

describe("C1: reply is the only way a returning agent returns", () => {
  it("keeps a headless root's object reply an object", async () => {
    const h = await startHarness(getBuiltinScenario("reply-object"));
    const run = await runPrompt(pg.current.db, h, { prompt: "count the files" });
    expect(run.root).toMatchObject({ status: "done", stopReason: "reply", failureTag: null, finalMessagePresent: true });
    expect(run.root.replyValue).toEqual({ status: "ok", files: 3, notes: ["a.md", "b.md"] });
    // The headless root was offered reply, alongside its profile's tools.
    expect(toolNames(run.steps[0]!)).toContain("reply");
    expect(run.events.find((e) => e.type === "agent.reply")?.data).toEqual({ value: run.root.replyValue });
  });

  it("keeps a string reply containing a brace the same string, unparsed", async () => {
    const h = await startHarness(getBuiltinScenario("reply-string-brace"));
    const run = await runPrompt(pg.current.db, h, { prompt: "read the config" });
    expect(run.root.replyValue).toBe('{"status": "ok"} is what the config said');
  });

  it("nudges a returning agent that answers in prose exactly nudgeBudget times, then fails it with no_reply", async () => {
    const h = await startHarness(getBuiltinScenario("prose-forever"), {
      profiles: { talker: "---\nname: talker\nnudgeBudget: 2\ntools: [todo_write]\n---\nYou talk." },
    });
    const run = await runPrompt(pg.current.db, h, { prompt: "what did you find?", profile: "talker" });
    expect(run.root).toMatchObject({
      status: "failed",
      stopReason: "no_reply",
      failureTag: "no_reply",
      replyValue: null,
      finalMessagePresent: false,
      verdict: "INCOMPLETE",
    });
    // One request, then one per nudge: the reminder arrives as a user message each time.
    expect(run.steps).toHaveLength(3);
    for (const request of run.steps.slice(1)) {
      expect(lastMessage(request)).toMatchObject({ role: "user", content: expect.stringContaining("reply tool") });
    }
    expect(run.events.filter((e) => e.type === "agent.nudge").map((e) => e.data.nudge)).toEqual([1, 2]);
    // The prose is kept only as partial text, never as a result.
    expect(run.root.partialText).toBe("Here is what I found: everything looks fine.");
    expect(run.events.some((e) => e.type === "agent.reply")).toBe(false);
  });

  it("never offers an interactive root reply and never nudges it", async () => {
    const h = await startHarness({ agents: { "*": [{ text: "Hello! How can I help?" }] } });
    const run = await runPrompt(pg.current.db, h, { prompt: "hi", mode: "interactive" });
    expect(run.steps).toHaveLength(1);
    expect(toolNames(run.steps[0]!)).not.toContain("reply");
    expect(run.events.some((e) => e.type === "agent.nudge")).toBe(false);
    expect(run.root).toMatchObject({
      status: "idle",
      stopReason: "end_turn",
      failureTag: null,
      finalMessagePresent: true,
      verdict: "UNVERIFIABLE",
      verdictRule: "no-ledger",
    });
  });

  it("rejects a reply that does not match the outputSchema with the schema error, nudges, then accepts a conforming one", async () => {
    const h = await startHarness(getBuiltinScenario("schema-mismatch"), {
      profiles: {
        answerer: [
          "---",
          "name: answerer",
          "tools: []",
          "outputSchema: { type: object, required: [answer], properties: { answer: { type: string } } }",
          "---",
          "Answer.",
        ].join("\n"),
      },
    });
    const run = await runPrompt(pg.current.db, h, { prompt: "6 times 7?", profile: "answerer" });
    expect(run.root).toMatchObject({ status: "done", stopReason: "reply", replyValue: { answer: "42" } });
    expect(run.steps).toHaveLength(2);
    const second = body(run.steps[1]!).messages;
    const toolResult = second.find((m) => m.role === "tool");
    expect(String(toolResult?.content)).toContain("does not match the required output schema");
    expect(String(toolResult?.content)).toContain("answer");
    expect(second[second.length - 1]).toMatchObject({ role: "user", content: expect.stringContaining("rejected") });
    expect(run.events.filter((e) => e.type === "agent.nudge").map((e) => e.data.reason)).toEqual(["reply_rejected"]);
  });
});
