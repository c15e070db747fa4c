import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { rootDir } from "../src/paths";

describe("handoff sim", () => {
  it("serves a built-in scenario over OpenAI-compatible HTTP and records what it was sent", async () => {
    const child = spawn(process.execPath, [path.join(rootDir, "packages/cli/bin/handoff.js"), "sim", "--port", "0", "--scenario", "reply-object"], {
      cwd: rootDir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (d) => {
          out += d;
          const m = /listening: (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const res = await fetch(`${url}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-handoff-agent": "agt_test" },
        body: JSON.stringify({ model: "sim", messages: [{ role: "user", content: "hi" }] }),
      });
      const body = (await res.json()) as { choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[] };
      const call = body.choices[0]!.message.tool_calls[0]!.function;
      expect(call.name).toBe("reply");
      expect(JSON.parse(call.arguments)).toEqual({ value: { status: "ok", files: 3, notes: ["a.md", "b.md"] } });
      const log = (await fetch(url.replace(/\/v1$/, "/_sim/requests")).then((r) => r.json())) as { headers: Record<string, string> }[];
      expect(log).toHaveLength(1);
      expect(log[0]!.headers["x-handoff-agent"]).toBe("agt_test");
    } finally {
      child.kill("SIGINT");
      await new Promise((r) => child.once("exit", r));
    }
  });

  it("names the known scenarios when given an unknown one", async () => {
    const child = spawn(process.execPath, [path.join(rootDir, "packages/cli/bin/handoff.js"), "sim", "--scenario", "nope"], {
      cwd: rootDir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    const code = await new Promise((r) => child.once("exit", r));
    expect(code).toBe(1);
    expect(err).toContain('unknown built-in scenario "nope"');
    expect(err).toContain("demo");
  });
});
