import { Scenario } from "./scenario";

/** Validates a scenario; the error names the source and the path of every bad field. */
export function parseScenario(json: unknown, source = "scenario"): Scenario {
  const parsed = Scenario.safeParse(json);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
  throw new Error(`${source}: invalid scenario: ${issues.join("; ")}`);
}

/** `agents.general[2].toolCalls[0].args`, the way a person would point at the field in the file. */
function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(root)";
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}
