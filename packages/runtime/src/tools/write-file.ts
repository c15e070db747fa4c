import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { defineTool } from "./define-tool";
import { workspacePath } from "./workspace-path";

export const writeFileTool = defineTool("write_file", {
  description: "Create or replace a file of the workspace with the given content.",
  parameters: z.strictObject({
    path: z.string().min(1).describe("Path relative to the workspace"),
    content: z.string().describe("The whole new content"),
  }),
  async execute({ path: rel, content }, ctx) {
    const file = await workspacePath(ctx.workspaceDir, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content, "utf8");
    return `wrote ${Buffer.byteLength(content, "utf8")} bytes to ${rel}`;
  },
});
