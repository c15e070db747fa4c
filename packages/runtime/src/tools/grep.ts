import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { defineTool, ToolError } from "./define-tool";
import { workspacePath } from "./workspace-path";

const MAX_MATCHES = 200;

export const grepTool = defineTool("grep", {
  description: "Search workspace files for a regular expression; answers path:line: text for each match.",
  parameters: z.strictObject({
    pattern: z.string().min(1).describe("JavaScript regular expression"),
    path: z.string().default(".").describe("File or directory relative to the workspace"),
  }),
  async execute({ pattern, path: rel }, ctx) {
    let re: RegExp;
    try {
      re = new RegExp(pattern);
    } catch (e) {
      throw new ToolError(`invalid pattern: ${(e as Error).message}`);
    }
    const root = await workspacePath(ctx.workspaceDir, rel);
    const matches: string[] = [];
    const visit = async (p: string): Promise<void> => {
      if (matches.length >= MAX_MATCHES) return;
      const s = await stat(p).catch(() => null);
      if (!s) throw new ToolError(`no file or directory "${rel}"`);
      if (s.isDirectory()) {
        for (const name of (await readdir(p)).sort()) await visit(path.join(p, name));
        return;
      }
      const text = await readFile(p, "utf8");
      text.split("\n").forEach((line, i) => {
        if (matches.length < MAX_MATCHES && re.test(line)) {
          matches.push(`${path.relative(ctx.workspaceDir, p) || path.basename(p)}:${i + 1}: ${line}`);
        }
      });
    };
    await visit(root);
    return matches.length === 0 ? "no matches" : matches.join("\n");
  },
});
