import { z } from "zod";

/** Tools a profile may list; `reply` is never listed (the runtime adds it to returning agents). */
export const BUILTIN_TOOL_NAMES = ["todo_write", "task", "read_file", "write_file", "edit_file", "list_files", "grep"] as const;

export const ModelRef = z
  .string()
  .regex(/^(openai-compatible|openai|anthropic|sim):.+$/, 'must be "provider:model" with provider openai-compatible, openai, anthropic or sim');

/** A profile's front matter plus its Markdown body (the system prompt). */
export const Profile = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, "lower-case letters, digits, - and _"),
  description: z.string().default(""),
  model: ModelRef.optional(),
  maxSteps: z.number().int().min(1).max(1000).default(25),
  nudgeBudget: z.number().int().min(0).max(20).default(2),
  tools: z
    .array(
      z.string().refine((t) => t !== "reply", "reply is added by the runtime to returning agents; do not list it"),
    )
    .refine((tools) => tools.every((t) => (BUILTIN_TOOL_NAMES as readonly string[]).includes(t)), {
      message: `unknown tool; known: ${BUILTIN_TOOL_NAMES.join(", ")}`,
    })
    .default([...BUILTIN_TOOL_NAMES]),
  /** A JSON Schema: when present, a reply's value must conform to it (C1). */
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  systemPrompt: z.string().default(""),
});
export type Profile = z.infer<typeof Profile>;
