import { getBuiltinScenario } from "@handoff/model-sim";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@handoff/db/testing";
import { runPrompt, startHarness } from "./harness";

const pg = useTestDatabase();

describe("stop facts", () => {
  it("records finish length as max_tokens with the raw reason and the cut text as partial", async () => {
    const h = await startHarness(getBuiltinScenario("length-cut"));
    const run = await runPrompt(pg.current.db, h, { prompt: "survey" });
    expect(run.root).toMatchObject({
      status: "failed",
      stopReason: "max_tokens",
      failureTag: "max_tokens",
      rawFinishReason: "length",
      partialText: "The survey found three areas that need attention. First, the",
      verdict: "INCOMPLETE",
      verdictRule: "stop-abnormal",
    });
    expect(run.steps).toHaveLength(1);
  });

  it("records finish content_filter as refusal", async () => {
    const h = await startHarness(getBuiltinScenario("content-filter"));
    const run = await runPrompt(pg.current.db, h, { prompt: "something" });
    expect(run.root).toMatchObject({ stopReason: "refusal", failureTag: "refusal", rawFinishReason: "content_filter" });
  });

  it("retries a 429 after its Retry-After delay within one step", async () => {
    const h = await startHarness(getBuiltinScenario("retry-429"));
    const run = await runPrompt(pg.current.db, h, { prompt: "go" });
    expect(run.root).toMatchObject({ status: "done", stopReason: "reply", replyValue: "Recovered after the rate limit.", modelSteps: 1 });
    expect(run.steps).toHaveLength(2);
    const waited = new Date(run.steps[1]!.at).getTime() - new Date(run.steps[0]!.at).getTime();
    expect(waited).toBeGreaterThanOrEqual(1000);
    const retry = run.events.find((e) => e.type === "model-step.retry");
    expect(retry?.data).toMatchObject({ attempt: 1, reason: "HTTP 429", delayMs: 1000 });
    expect(run.events.filter((e) => e.type === "model-step.start")).toHaveLength(1);
  });

  it("ends with error and the message when the model keeps failing", async () => {
    const h = await startHarness({ agents: { "*": [{ error: { status: 400, message: "bad request: model not found" } }] } });
    const run = await runPrompt(pg.current.db, h, { prompt: "go" });
    expect(run.root).toMatchObject({ status: "failed", stopReason: "error", failureTag: "error" });
    expect(run.root.stopDetail).toContain("model not found");
    expect(run.steps).toHaveLength(1);
  });

  it("counts usage per step and per agent", async () => {
    const h = await startHarness({
      agents: {
        "*": [
          { toolCalls: [{ name: "todo_write", args: { todos: [{ id: "1", content: "x", status: "completed" }] } }], usage: { input: 100, output: 10 } },
          { toolCalls: [{ name: "reply", args: { value: "ok" } }], usage: { input: 150, output: 5 } },
        ],
      },
    });
    const run = await runPrompt(pg.current.db, h, { prompt: "go" });
    expect(run.root).toMatchObject({ inputTokens: 250, outputTokens: 15, modelSteps: 2, verdict: "COMPLETE", openTodoCount: 0 });
    expect(run.events.filter((e) => e.type === "model-step.end").map((e) => e.data.usage)).toEqual([
      { input: 100, output: 10 },
      { input: 150, output: 5 },
    ]);
  });

  it("gives a malformed tool call an error result the model can act on", async () => {
    const h = await startHarness({
      agents: {
        "*": [
          { toolCalls: [{ name: "list_files", args: { path: "." } }], malformedToolCallJson: true },
          { toolCalls: [{ name: "reply", args: { value: "recovered" } }] },
        ],
      },
    });
    const run = await runPrompt(pg.current.db, h, { prompt: "go" });
    expect(run.root.replyValue).toBe("recovered");
    const end = run.events.find((e) => e.type === "tool-call.end");
    expect(end?.data).toMatchObject({ name: "list_files", isError: true });
    expect(String(end?.data.output)).toContain("could not be used");
  });
});
