import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createModelSim, getBuiltinScenario, type Scenario } from "@handoff/model-sim";
import { freePort } from "@handoff/db/testing/server";
import { useTestDatabase } from "@handoff/db/testing";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { runHandoff, type Ran } from "./lib/run-handoff";

const pg = useTestDatabase();
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "handoff-run-"));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function handoff(args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  return runHandoff(args, { HANDOFF_DATA_DIR: dataDir, ...env });
}

async function runAgainst(scenario: Scenario, extra: string[] = []) {
  const sim = await createModelSim({ scenario });
  onTestFinished(() => sim.close());
  const ran = await handoff(
    ["run", "do the thing", "--model", "openai-compatible:sim", "--base-url", sim.url, "--output-format", "json", ...extra],
    { DATABASE_URL: pg.current.url },
  );
  return { ran, sim, result: ran.stdout ? JSON.parse(ran.stdout) : null };
}

describe("handoff run --output-format json", () => {
  it("prints an object reply as that object, with exit status 0", async () => {
    const { ran, result, sim } = await runAgainst(getBuiltinScenario("reply-object"));
    expect(ran.code, ran.stderr).toBe(0);
    expect(result).toMatchObject({
      type: "result",
      is_error: false,
      result: { status: "ok", files: 3, notes: ["a.md", "b.md"] },
      stop_reason: "reply",
      failure_tag: null,
      evidence: { finalMessagePresent: true, openTodoCount: null, stopReason: "reply" },
      verdict: "UNVERIFIABLE",
      num_turns: 1,
      model_steps: 1,
      usage: { input_tokens: 100, output_tokens: 20 },
    });
    expect(result.agents).toEqual([
      expect.objectContaining({ parent_id: null, profile: "general", status: "done", stop_reason: "reply" }),
    ]);
    expect(typeof result.duration_ms).toBe("number");
    // What the model was sent: the prompt, with the tracing headers.
    const step = sim.requests().find((r) => r.headers["x-handoff-purpose"] !== "housekeeping")!;
    expect(step.headers["x-handoff-session"]).toBe(result.session_id);
    expect(step.headers["x-handoff-profile"]).toBe("general");
    expect(JSON.stringify(step.body)).toContain("do the thing");
  });

  it("prints a string reply containing a brace as the same string, unparsed", async () => {
    const { ran, result } = await runAgainst(getBuiltinScenario("reply-string-brace"));
    expect(ran.code).toBe(0);
    expect(result.result).toBe('{"status": "ok"} is what the config said');
  });

  it("reports a root that never replied as an error with a null result and exit status 1", async () => {
    const { ran, result } = await runAgainst(getBuiltinScenario("prose-forever"));
    expect(ran.code).toBe(1);
    expect(result).toMatchObject({ is_error: true, result: null, stop_reason: "no_reply", failure_tag: "no_reply", verdict: "INCOMPLETE" });
    expect(ran.stdout).not.toContain("everything looks fine");
  });

  it("passes --max-steps to the agent", async () => {
    const { result, sim } = await runAgainst(getBuiltinScenario("always-tools"), ["--max-steps", "2"]);
    expect(result).toMatchObject({ stop_reason: "step_cap", failure_tag: "step_cap", model_steps: 2 });
    expect(sim.requests().filter((r) => r.headers["x-handoff-purpose"] !== "housekeeping")).toHaveLength(2);
  });
});

describe("handoff run on a fresh checkout", () => {
  it("runs the demo with embedded Postgres and no configuration", async () => {
    const fresh = await mkdtemp(path.join(os.tmpdir(), "handoff-fresh-"));
    onTestFinished(() => rm(fresh, { recursive: true, force: true }));
    const ran = await handoff(["run", "hello", "--output-format", "json"], {
      DATABASE_URL: "",
      HANDOFF_DATA_DIR: fresh,
      HANDOFF_PG_PORT: String(await freePort()),
    });
    expect(ran.code, ran.stderr).toBe(0);
    const result = JSON.parse(ran.stdout);
    expect(result).toMatchObject({ is_error: false, stop_reason: "reply", verdict: "COMPLETE" });
    expect(result.result).toContain("Demo summary");
  });

  it("writes the reply to stdout and progress to stderr in text mode", async () => {
    const sim = await createModelSim({ scenario: getBuiltinScenario("reply-string-brace") });
    onTestFinished(() => sim.close());
    const ran = await handoff(["run", "go", "--model", "openai-compatible:sim", "--base-url", sim.url], {
      DATABASE_URL: pg.current.url,
    });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe('{"status": "ok"} is what the config said\n');
    expect(ran.stderr).toContain("→ reply");
    expect(ran.stderr).toContain("ended: reply");
  });
});
