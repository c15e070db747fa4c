import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@handoff/db/testing";
import { body, lastMessage, runPrompt, startHarness, toolNames } from "./harness";

const pg = useTestDatabase();

/** A model that calls a tool whenever it is offered one, and otherwise answers in text. */
const toolHungry = {
  agents: {
    "*": [
      {
        text: "Final answer: the workspace is empty.",
        toolCalls: [{ name: "list_files", args: { path: "." }, ifOffered: true }],
        repeatForever: true,
      },
    ],
  },
};

describe("C2: the step cap ends with an answer, not an error", () => {
  it("gives an interactive root with maxSteps 3 exactly 3 requests, the last toolless with the cap as a user message", async () => {
    const h = await startHarness(toolHungry);
    const run = await runPrompt(pg.current.db, h, { prompt: "look around", mode: "interactive", maxSteps: 3 });
    expect(run.steps).toHaveLength(3);
    const [first, second, last] = run.steps.map(body);
    for (const earlier of [first!, second!]) {
      expect(earlier.tools?.length).toBeGreaterThan(0);
      expect(JSON.stringify(earlier.messages)).not.toContain("MAXIMUM STEPS REACHED");
    }
    expect(last!.tools).toBeUndefined();
    expect(last!.tool_choice).toBe("none");
    expect(last!.messages.some((m) => m.role === "tool")).toBe(false);
    expect(last!.messages.some((m) => Array.isArray(m.tool_calls) && m.tool_calls.length > 0)).toBe(false);
    expect(lastMessage(run.steps[2]!)).toMatchObject({ role: "user", content: expect.stringContaining("MAXIMUM STEPS REACHED") });
    // The earlier tool calls and results survive as text.
    expect(JSON.stringify(last!.messages)).toContain("[called tool list_files");
    expect(JSON.stringify(last!.messages)).toContain("[tool list_files returned:");
    expect(run.root).toMatchObject({ status: "idle", stopReason: "step_cap", finalMessagePresent: true, modelSteps: 3 });
    const end = run.events.find((e) => e.type === "agent.end");
    expect(end?.data).toMatchObject({ stopReason: "step_cap" });
    const lastStep = run.events.filter((e) => e.type === "model-step.end").at(-1);
    expect(lastStep?.data.text).toBe("Final answer: the workspace is empty.");
  });

  it("does not count a housekeeping request (the session title) as a step", async () => {
    const h = await startHarness(toolHungry);
    const run = await runPrompt(pg.current.db, h, { prompt: "look around the workspace please", mode: "interactive", maxSteps: 3 });
    const housekeeping = run.requests.filter((r) => r.headers["x-handoff-purpose"] === "housekeeping");
    expect(housekeeping).toHaveLength(1);
    expect(run.requests).toHaveLength(4);
    expect(run.steps).toHaveLength(3);
    expect(run.root.modelSteps).toBe(3);
    expect(run.events.find((e) => e.type === "session.title")?.data.title).toBe("look around the workspace please");
  });

  it("offers a returning agent only reply at the cap, and fails it with step_cap keeping its text as partial", async () => {
    const h = await startHarness(toolHungry);
    const run = await runPrompt(pg.current.db, h, { prompt: "look around", mode: "headless", maxSteps: 2 });
    expect(run.steps).toHaveLength(2);
    expect(toolNames(run.steps[0]!)).toContain("list_files");
    expect(toolNames(run.steps[1]!)).toEqual(["reply"]);
    expect(body(run.steps[1]!).tool_choice).toBe("auto");
    expect(lastMessage(run.steps[1]!)).toMatchObject({ role: "user", content: expect.stringContaining("Call the reply tool now") });
    expect(run.root).toMatchObject({
      status: "failed",
      stopReason: "step_cap",
      failureTag: "step_cap",
      partialText: "Final answer: the workspace is empty.",
      replyValue: null,
      verdict: "INCOMPLETE",
    });
  });

  it("accepts a reply made on the capped request", async () => {
    const h = await startHarness({
      agents: { "*": [{ toolCalls: [{ name: "list_files", args: {} }] }, { toolCalls: [{ name: "reply", args: { value: "done at the cap" } }] }] },
    });
    const run = await runPrompt(pg.current.db, h, { prompt: "go", maxSteps: 2 });
    expect(run.root).toMatchObject({ status: "done", stopReason: "reply", replyValue: "done at the cap" });
  });
});
