import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { loadProfiles, parseProfile } from "../src/index";

async function agentsDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "handoff-agents-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

describe("profiles", () => {
  it("reads front matter and the Markdown body as the system prompt", () => {
    const profile = parseProfile(
      "---\nname: explore\ndescription: Looks around\nmodel: openai-compatible:qwen3-coder\nmaxSteps: 12\nnudgeBudget: 3\ntools: [read_file, grep, todo_write]\n---\n# Explorer\nYou explore.\n",
      "agents/explore.md",
    );
    expect(profile).toEqual({
      name: "explore",
      description: "Looks around",
      model: "openai-compatible:qwen3-coder",
      maxSteps: 12,
      nudgeBudget: 3,
      tools: ["read_file", "grep", "todo_write"],
      systemPrompt: "# Explorer\nYou explore.",
    });
  });

  it.each([
    ["---\nname: x\nmaxSteps: zero\n---\n", "agents/x.md: maxSteps"],
    ["---\nname: x\ntools: [reply]\n---\n", "agents/x.md: tools.0: reply is added by the runtime"],
    ["---\nname: x\ntools: [launch_missiles]\n---\n", "agents/x.md: tools: unknown tool"],
    ["---\nname: x\nmodel: gpt-4\n---\n", 'agents/x.md: model: must be "provider:model"'],
    ["---\nname: x\ncolour: blue\n---\n", "agents/x.md: front matter: Unrecognized key"],
    ["no front matter", "agents/x.md: a profile starts with YAML front matter"],
    ["---\nname: [unclosed\n---\n", "agents/x.md: front matter is not valid YAML"],
  ])("fails loudly on %j, naming the file and the field", (text, message) => {
    expect(() => parseProfile(text, "agents/x.md")).toThrow(message);
  });

  it("loads agents/*.md beside the built-ins and refuses a name that differs from the file", async () => {
    const dir = await agentsDir({ "reviewer.md": "---\nname: reviewer\ntools: [read_file]\n---\nReview." });
    const profiles = await loadProfiles(dir);
    expect(profiles.names()).toEqual(["explore", "general", "reviewer"]);
    expect(profiles.get("general").tools).toContain("todo_write");
    expect(() => profiles.get("nobody")).toThrow('unknown profile "nobody"; known: explore, general, reviewer');

    const bad = await agentsDir({ "a.md": "---\nname: b\n---\n" });
    await expect(loadProfiles(bad)).rejects.toThrow(/a\.md: name: "b" must match the file name "a"/);
  });
});
