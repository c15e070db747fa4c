import type { ToolDefinition } from "./define-tool";
import { editFileTool } from "./edit-file";
import { grepTool } from "./grep";
import { listFilesTool } from "./list-files";
import { readFileTool } from "./read-file";
import { replyTool } from "./reply";
import { taskTool } from "./task";
import { todoWriteTool } from "./todo-write";
import { writeFileTool } from "./write-file";

/** Every tool the runtime defines, by id. */
export const builtinTools: Record<string, ToolDefinition> = Object.fromEntries(
  [replyTool, todoWriteTool, taskTool, readFileTool, writeFileTool, editFileTool, listFilesTool, grepTool].map((t) => [t.id, t]),
);
