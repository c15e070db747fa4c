import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { builtinTools } from "../src/index";
import type { ToolContext } from "../src/tools/tool-context";

async function workspace(): Promise<{ ctx: ToolContext; dir: string }> {
  const base = await mkdtemp(path.join(os.tmpdir(), "handoff-ws-"));
  onTestFinished(() => rm(base, { recursive: true, force: true }));
  const dir = path.join(base, "ws");
  await mkdir(dir);
  await writeFile(path.join(base, "secret.txt"), "outside");
  const ctx = { workspaceDir: dir, maxOutputBytes: 200, signal: new AbortController().signal } as ToolContext;
  return { ctx, dir };
}

const run = (name: string, args: unknown, ctx: ToolContext) => builtinTools[name]!.run(args, ctx);

describe("workspace tools", () => {
  it("write, read, edit, list and grep inside the workspace", async () => {
    const { ctx, dir } = await workspace();
    expect(await run("write_file", { path: "notes/a.txt", content: "one\ntwo\n" }, ctx)).toEqual({
      output: "wrote 8 bytes to notes/a.txt",
      isError: false,
    });
    expect((await run("read_file", { path: "notes/a.txt" }, ctx)).output).toBe("1\tone\n2\ttwo\n3\t");
    await run("edit_file", { path: "notes/a.txt", oldString: "two", newString: "deux" }, ctx);
    expect(await readFile(path.join(dir, "notes/a.txt"), "utf8")).toBe("one\ndeux\n");
    expect((await run("list_files", { path: ".", recursive: true }, ctx)).output).toBe("notes/\nnotes/a.txt");
    expect((await run("grep", { pattern: "de+ux" }, ctx)).output).toBe("notes/a.txt:2: deux");
  });

  it.each([
    ["read_file", { path: "../secret.txt" }, "outside the workspace"],
    ["read_file", { path: "/etc/passwd" }, "is absolute"],
    ["write_file", { path: "a/../../escape.txt", content: "x" }, "outside the workspace"],
    ["list_files", { path: ".." }, "outside the workspace"],
  ])("refuse %s %j", async (tool, args, message) => {
    const { ctx } = await workspace();
    const result = await run(tool, args, ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toContain(message);
  });

  it("refuse a symbolic link that leads out of the workspace", async () => {
    const { ctx, dir } = await workspace();
    await symlink(path.join(dir, ".."), path.join(dir, "up"));
    const read = await run("read_file", { path: "up/secret.txt" }, ctx);
    expect(read).toMatchObject({ isError: true, output: expect.stringContaining("symbolic link") });
    const write = await run("write_file", { path: "up/new.txt", content: "x" }, ctx);
    expect(write.isError).toBe(true);
  });

  it("answer bad arguments with an error naming the field", async () => {
    const { ctx } = await workspace();
    const result = await run("edit_file", { path: "a.txt", oldString: 3 }, ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^Invalid arguments for edit_file: oldString: .*newString: /);
  });

  it("cut output over the limit and say so", async () => {
    const { ctx } = await workspace();
    await run("write_file", { path: "big.txt", content: "x".repeat(1000) }, ctx);
    const result = await run("read_file", { path: "big.txt" }, ctx);
    expect(String(result.output)).toContain("[output cut at 200 bytes");
    expect(Buffer.byteLength(String(result.output).split("\n…")[0]!)).toBeLessThanOrEqual(200);
  });
});
