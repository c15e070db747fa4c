import { readFile, writeFile } from "node:fs/promises";
import { z } from "zod";
import { defineTool, ToolError } from "./define-tool";
import { workspacePath } from "./workspace-path";

export const editFileTool = defineTool("edit_file", {
  description: "Replace exact text in a workspace file. oldString must occur exactly once unless replaceAll is true.",
  parameters: z.strictObject({
    path: z.string().min(1).describe("Path relative to the workspace"),
    oldString: z.string().min(1).describe("Exact text to replace"),
    newString: z.string().describe("Replacement text"),
    replaceAll: z.boolean().optional().describe("Replace every occurrence"),
  }),
  async execute({ path: rel, oldString, newString, replaceAll }, ctx) {
    const file = await workspacePath(ctx.workspaceDir, rel);
    const text = await readFile(file, "utf8").catch(() => {
      throw new ToolError(`no file "${rel}"; create it with write_file`);
    });
    const count = text.split(oldString).length - 1;
    if (count === 0) throw new ToolError(`oldString does not occur in ${rel}; read the file and copy the text exactly`);
    if (count > 1 && !replaceAll) {
      throw new ToolError(`oldString occurs ${count} times in ${rel}; add context to make it unique or set replaceAll`);
    }
    await writeFile(file, replaceAll ? text.split(oldString).join(newString) : text.replace(oldString, () => newString));
    return `replaced ${replaceAll ? count : 1} occurrence(s) in ${rel}`;
  },
});
