import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { builtinScenarios, getBuiltinScenario, loadScenarioFile, parseScenario } from "../src/index";
import { startSim } from "./start-sim";

async function tempFile(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "model-sim-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe("scenario validation", () => {
  it("accepts the format in DESIGN.md with every step field", () => {
    const scenario = parseScenario({
      agents: {
        general: [
          { text: "hi", toolCalls: [{ name: "todo_write", args: { todos: [] } }], finish: "tool_calls", delayMs: 10, usage: { input: 1, output: 2 } },
          { error: { status: 429, retryAfterSeconds: 1 } },
        ],
        "*": [],
      },
    });
    expect(scenario.agents.general).toHaveLength(2);
  });

  it("names the source and the path of a bad field", () => {
    const bad = { agents: { general: [{ text: "ok" }, { toolCalls: [{ name: "list_files", args: "." }] }] } };
    expect(() => parseScenario(bad, "fixtures/bad.json")).toThrow(/^fixtures\/bad\.json: invalid scenario: agents\.general\[1\]\.toolCalls\[0\]\.args: /);
  });

  it("rejects a misspelt step field by name instead of ignoring it", () => {
    expect(() => parseScenario({ agents: { "*": [{ tool_calls: [] }] } })).toThrow(/agents\.\*\[0\]: .*tool_calls/);
  });

  it("rejects an unknown finish reason and an out-of-range status", () => {
    expect(() => parseScenario({ agents: { "*": [{ finish: "done" }] } })).toThrow(/agents\.\*\[0\]\.finish/);
    expect(() => parseScenario({ agents: { "*": [{ error: { status: 200 } }] } })).toThrow(/agents\.\*\[0\]\.error\.status/);
  });

  it("rejects an error step that also scripts a completion", () => {
    expect(() => parseScenario({ agents: { "*": [{ error: { status: 500 }, text: "hi" }] } })).toThrow(/agents\.\*\[0\]\.text: an error step/);
  });

  it("rejects malformedToolCallJson on a step without tool calls", () => {
    expect(() => parseScenario({ agents: { "*": [{ text: "x", malformedToolCallJson: true }] } })).toThrow(
      /agents\.\*\[0\]\.malformedToolCallJson/,
    );
  });

  it("loads a scenario file and names the file in every error", async () => {
    const good = await tempFile("good.json", JSON.stringify({ agents: { "*": [{ text: "hi" }] } }));
    expect(await loadScenarioFile(good)).toEqual({ agents: { "*": [{ text: "hi" }] } });
    const badJson = await tempFile("broken.json", "{ agents: ");
    await expect(loadScenarioFile(badJson)).rejects.toThrow(`${badJson}: scenario file is not valid JSON`);
    const badField = await tempFile("field.json", JSON.stringify({ agents: { "*": [{ delayMs: -1 }] } }));
    await expect(loadScenarioFile(badField)).rejects.toThrow(`${badField}: invalid scenario: agents.*[0].delayMs`);
    await expect(loadScenarioFile(join(tmpdir(), "no-such-scenario.json"))).rejects.toThrow(/no-such-scenario\.json: cannot read/);
  });

  it("refuses an invalid scenario at PUT /_sim/scenario with a 400 naming the field, and keeps the old one", async () => {
    const sim = await startSim({ agents: { "*": [{ text: "kept" }] } });
    const res = await fetch(sim.url.replace(/\/v1$/, "/_sim/scenario"), {
      method: "PUT",
      body: JSON.stringify({ agents: { "*": [{ usage: { input: "many" } }] } }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/^PUT \/_sim\/scenario: invalid scenario: agents\.\*\[0\]\.usage\.input/);
    const current = await (await fetch(sim.url.replace(/\/v1$/, "/_sim/scenario"))).json();
    expect(current).toEqual({ agents: { "*": [{ text: "kept" }] } });
  });
});

describe("built-in scenarios", () => {
  it("are all valid scenarios", () => {
    for (const [name, scenario] of Object.entries(builtinScenarios)) {
      expect(() => parseScenario(scenario, `builtin ${name}`)).not.toThrow();
    }
  });

  it("include the demo, one scenario per contract case and the dashboard's cases", () => {
    expect(Object.keys(builtinScenarios).sort()).toEqual(
      [
        "always-tools",
        "cap-text",
        "content-filter",
        "demo",
        "length-cut",
        "prose-forever",
        "reply-object",
        "reply-string-brace",
        "retry-429",
        "schema-mismatch",
        "explore-cut",
        "reply-markdown",
        "paced",
      ].sort(),
    );
  });

  it("are found by name, and an unknown name lists the known ones", () => {
    expect(getBuiltinScenario("demo").agents.general).toBeDefined();
    expect(() => getBuiltinScenario("dmeo")).toThrow(/unknown built-in scenario "dmeo"; known: demo, reply-object/);
  });
});
