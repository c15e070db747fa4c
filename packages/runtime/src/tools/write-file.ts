import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { defineTool, ToolError } from "./define-tool";
import { workspacePath } from "./workspace-path";

export const writeFileTool = defineTool("write_file", {
  description: "Create or replace a file of the workspace with the given content.",
  parameters: z.strictObject({
    path: z.string().min(1).describe("Path relative to the workspace"),
    content: z.string().describe("The whole new content"),
  }),
  async execute({ path: rel, content }, ctx) {
    const file = await workspacePath(ctx.workspaceDir, rel);
    // Fix (property tests): a directory in the way is the model's to fix, not a crash of the tool.
    const refused = (e: NodeJS.ErrnoException): never => {
      throw new ToolError(
        e.code === "EISDIR"
          ? `"${rel}" is a directory`
          : e.code === "ENOTDIR" || e.code === "EEXIST"
            ? `a parent of "${rel}" is a file, not a directory`
            : `could not write "${rel}" (${e.code ?? "error"})`,
      );
    };
    await mkdir(path.dirname(file), { recursive: true }).catch(refused);
    await writeFile(file, content, "utf8").catch(refused);
    return `wrote ${Buffer.byteLength(content, "utf8")} bytes to ${rel}`;
  },
});
