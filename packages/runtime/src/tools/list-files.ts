import { readdir } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { defineTool, ToolError } from "./define-tool";
import { workspacePath } from "./workspace-path";

const MAX_ENTRIES = 1000;

export const listFilesTool = defineTool("list_files", {
  description: "List the entries of a workspace directory (directories end with /).",
  parameters: z.strictObject({
    path: z.string().default(".").describe("Directory relative to the workspace"),
    recursive: z.boolean().optional().describe("Include subdirectories' entries"),
  }),
  async execute({ path: rel, recursive }, ctx) {
    const dir = await workspacePath(ctx.workspaceDir, rel);
    const out: string[] = [];
    const visit = async (d: string, prefix: string): Promise<void> => {
      const entries = await readdir(d, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
        throw new ToolError(e.code === "ENOENT" ? `no directory "${rel}"` : e.message);
      });
      for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        if (out.length >= MAX_ENTRIES) return;
        out.push(`${prefix}${e.name}${e.isDirectory() ? "/" : ""}`);
        if (recursive && e.isDirectory()) await visit(path.join(d, e.name), `${prefix}${e.name}/`);
      }
    };
    await visit(dir, "");
    if (out.length === 0) return "(empty directory)";
    return out.length >= MAX_ENTRIES ? `${out.join("\n")}\n… (first ${MAX_ENTRIES} entries)` : out.join("\n");
  },
});
