import { BUILTIN_TOOL_NAMES, Profile } from "./profile";

/** Profiles that exist without any file: `general` (every built-in tool) and `explore` (read-only). */
export const builtinProfiles: Record<string, Profile> = {
  general: Profile.parse({
    name: "general",
    description: "A general-purpose agent with every built-in tool.",
    tools: [...BUILTIN_TOOL_NAMES],
    systemPrompt: [
      "You are a capable agent working in a session workspace.",
      "Keep a todo ledger with todo_write for any work of more than one step, and close it before you finish.",
      "When you are asked to return a result, call the reply tool with it; that is the only way to return.",
    ].join("\n"),
  }),
  explore: Profile.parse({
    name: "explore",
    description: "Reads and searches the workspace, then reports back.",
    tools: ["todo_write", "read_file", "list_files", "grep"],
    maxSteps: 12,
    systemPrompt: [
      "You explore the workspace to answer a question for another agent.",
      "Keep a short todo ledger, and finish by calling reply with what you found.",
    ].join("\n"),
  }),
};
