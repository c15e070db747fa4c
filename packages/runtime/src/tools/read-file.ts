import { readFile } from "node:fs/promises";
import { z } from "zod";
import { defineTool, ToolError } from "./define-tool";
import { workspacePath } from "./workspace-path";

export const readFileTool = defineTool("read_file", {
  description: "Read a text file of the workspace. Lines are numbered from 1; use offset and limit for long files.",
  parameters: z.strictObject({
    path: z.string().min(1).describe("Path relative to the workspace"),
    offset: z.number().int().min(1).optional().describe("First line to read (1-based)"),
    limit: z.number().int().min(1).max(5000).optional().describe("How many lines to read"),
  }),
  async execute({ path, offset = 1, limit = 2000 }, ctx) {
    const file = await workspacePath(ctx.workspaceDir, path);
    const text = await readFile(file, "utf8").catch((e: NodeJS.ErrnoException) => {
      throw new ToolError(e.code === "ENOENT" ? `no file "${path}"` : e.code === "EISDIR" ? `"${path}" is a directory` : e.message);
    });
    const lines = text.split("\n");
    const slice = lines.slice(offset - 1, offset - 1 + limit);
    return slice.map((line, i) => `${offset + i}\t${line}`).join("\n") || "(empty file)";
  },
});
