import YAML from "yaml";
import { Profile } from "./profile";

/**
 * Parses a profile file: YAML front matter between `---` lines, then the system prompt in
 * Markdown. Errors name the file and the field.
 */
export function parseProfile(text: string, file: string): Profile {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) throw new Error(`${file}: a profile starts with YAML front matter between "---" lines`);
  let front: unknown;
  try {
    front = YAML.parse(match[1]!);
  } catch (e) {
    throw new Error(`${file}: front matter is not valid YAML: ${(e as Error).message}`);
  }
  if (typeof front !== "object" || front === null || Array.isArray(front)) {
    throw new Error(`${file}: front matter must be a mapping of fields`);
  }
  if ("systemPrompt" in front) throw new Error(`${file}: systemPrompt: write the system prompt below the front matter`);
  const parsed = Profile.safeParse({ ...front, systemPrompt: match[2]!.trim() });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${file}: ${issue.path.join(".") || "front matter"}: ${issue.message}`);
  }
  return parsed.data;
}
