/** How a session's root agent is set up from the command line: `handoff run` and `handoff acp` take the same flags. */
export interface RootAgent {
  profile: string;
  model?: string;
  baseUrl?: string;
  maxSteps?: number;
}

/** The flags, for `parseArgs`. */
export const ROOT_AGENT_OPTIONS = {
  profile: { type: "string", default: "general" },
  model: { type: "string" },
  "base-url": { type: "string" },
  "max-steps": { type: "string" },
} as const;

export function rootAgent(values: { profile?: string; model?: string; "base-url"?: string; "max-steps"?: string }): RootAgent {
  const maxSteps = values["max-steps"] === undefined ? undefined : Number(values["max-steps"]);
  if (maxSteps !== undefined && (!Number.isInteger(maxSteps) || maxSteps < 1)) {
    throw new Error(`--max-steps must be a whole number of at least 1, not "${values["max-steps"]}"`);
  }
  return {
    profile: values.profile ?? "general",
    ...(values.model ? { model: values.model } : {}),
    ...(values["base-url"] ? { baseUrl: values["base-url"] } : {}),
    ...(maxSteps ? { maxSteps } : {}),
  };
}
