import type { Scenario } from "@handoff/model-sim";
import type { HeadlessResult } from "@handoff/runtime";
import { describe, expect, it } from "vitest";
import { runHandoff, type Ran } from "./lib/run-handoff";
import { useRunningService } from "./lib/running-service";

const service = useRunningService("run-url");

function handoff(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return runHandoff(args, { HANDOFF_DATA_DIR: service.dataDir, DATABASE_URL: service.pg.url, HANDOFF_TOKEN: service.token, ...env });
}

/** Both modes, one after the other, on the same script (each session's agents play it from the top). */
async function bothModes(scenario: Scenario, args: string[]) {
  service.sim.setScenario(scenario);
  const common = ["run", "gather and report", "--model", "openai-compatible:sim", "--base-url", service.sim.url, ...args];
  const inProcess = await handoff(common);
  const overUrl = await handoff([...common, "--url", service.served.url]);
  return { inProcess, overUrl };
}

/** The result without what differs between any two runs: ids and durations. */
function comparable(result: HeadlessResult) {
  const label = new Map(result.agents.map((a, i) => [a.id, `agent ${i}`]));
  return {
    ...result,
    session_id: "…",
    duration_ms: 0,
    agents: result.agents.map((a) => ({ ...a, id: label.get(a.id), parent_id: a.parent_id && label.get(a.parent_id) })),
  };
}

const usage = { input: 50, output: 10 };
const todos = (status: string) => ({ todos: [{ id: "1", content: "Ask explore for the files", status }] });
/** A root with a ledger that delegates to a subagent, then replies with an object. */
const delegation: Scenario = {
  agents: {
    general: [
      { toolCalls: [{ name: "todo_write", args: todos("in_progress") }], usage },
      { toolCalls: [{ name: "task", args: { profile: "explore", prompt: "list the files" } }], usage },
      {
        toolCalls: [
          { name: "todo_write", args: todos("completed") },
          { name: "reply", args: { value: { files: 2, names: ["a.md", "b.md"] } } },
        ],
        usage,
      },
    ],
    explore: [
      { toolCalls: [{ name: "list_files", args: { path: "." } }], usage },
      { toolCalls: [{ name: "reply", args: { value: "two files: a.md, b.md" } }], usage },
    ],
  },
};

describe("handoff run --url", () => {
  it("prints the same json object as the in-process mode, subagents and evidence included", async () => {
    const { inProcess, overUrl } = await bothModes(delegation, ["--output-format", "json"]);
    expect(inProcess.code, inProcess.stderr).toBe(0);
    expect(overUrl.code, overUrl.stderr).toBe(0);
    const local = JSON.parse(inProcess.stdout) as HeadlessResult;
    const remote = JSON.parse(overUrl.stdout) as HeadlessResult;
    expect(remote.session_id).not.toBe(local.session_id);
    expect(comparable(remote)).toEqual(comparable(local));
    expect(local).toMatchObject({
      is_error: false,
      result: { files: 2, names: ["a.md", "b.md"] },
      verdict: "COMPLETE",
      num_turns: 1,
      model_steps: 5,
      usage: { input_tokens: 250, output_tokens: 50 },
    });
    expect(local.agents.map((a) => a.profile)).toEqual(["general", "explore"]);
  });

  it("prints the same json object for a run that failed at the step cap (--max-steps passed on), with the same exit status", async () => {
    const scenario: Scenario = { agents: { general: [{ text: "I am thinking about it", usage, repeatForever: true }] } };
    const { inProcess, overUrl } = await bothModes(scenario, ["--output-format", "json", "--max-steps", "3"]);
    expect([inProcess.code, overUrl.code]).toEqual([1, 1]);
    const local = JSON.parse(inProcess.stdout) as HeadlessResult;
    expect(local).toMatchObject({ is_error: true, result: null, failure_tag: "step_cap", verdict: "INCOMPLETE", model_steps: 3 });
    expect(comparable(JSON.parse(overUrl.stdout) as HeadlessResult)).toEqual(comparable(local));
  });

  it("writes the same reply to stdout and the same progress to stderr in text mode", async () => {
    const { inProcess, overUrl } = await bothModes(delegation, []);
    expect([inProcess.code, overUrl.code]).toEqual([0, 0]);
    expect(overUrl.stdout).toBe(inProcess.stdout);
    expect(JSON.parse(inProcess.stdout)).toEqual({ files: 2, names: ["a.md", "b.md"] });
    // Progress lines name agents by the tail of their id: number them in order of appearance.
    const anonymous = (text: string) => {
      const seen = new Map<string, number>();
      return text.replace(/\[([0-9a-z]{6})\]/g, (_, id: string) => `[agent ${seen.get(id) ?? seen.set(id, seen.size).get(id)}]`);
    };
    expect(anonymous(overUrl.stderr)).toBe(anonymous(inProcess.stderr));
    expect(inProcess.stderr).toContain("→ task");
  });

  it("fails with the service's message when the token is refused", async () => {
    const ran = await handoff(["run", "hello", "--url", service.served.url], { HANDOFF_TOKEN: "" });
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/^handoff run: a valid API token is required/);
  });
});
