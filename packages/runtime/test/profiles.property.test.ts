import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BUILTIN_TOOL_NAMES, parseProfile, Profile } from "../src/index";

const FILE = "agents/prop.md";

/** Either a profile that validates, or an Error naming the file: nothing else may come out. */
function parsesOrNamesTheFile(text: string): void {
  let profile: unknown;
  try {
    profile = parseProfile(text, FILE);
  } catch (e) {
    expect(e).toBeInstanceOf(Error);
    expect((e as Error).message.startsWith(`${FILE}: `), (e as Error).message).toBe(true);
    return;
  }
  expect(Profile.safeParse(profile).success).toBe(true);
}

const FIELDS = ["name", "description", "model", "maxSteps", "nudgeBudget", "tools", "outputSchema", "systemPrompt", "reply"];

/** YAML values a person (or a bad merge) might write for a field. */
const yamlValue = fc.oneof(
  fc.constantFrom("explore", "Explore", "-x", "a b", "sim:demo", "gpt4", "openai-compatible:", "12", "0", "-1", "1001", "1.5", "null", "~", "true", "yes", "[]", "{}"),
  fc.constantFrom("[read_file, grep]", "[reply]", "[nope]", "[read_file, read_file]", "{ type: object }", "{ type: 12 }", "&a [1]", "*a", "!!binary aGk=", "|\n  block"),
  fc.string({ maxLength: 12 }),
  fc.integer().map(String),
);

/** A valid profile, then fields replaced, added or dropped, and lines cut or duplicated. */
const mutatedProfile = fc
  .record({
    set: fc.dictionary(fc.constantFrom(...FIELDS, "extra"), yamlValue, { maxKeys: 3 }),
    drop: fc.subarray(["name", "description", "tools"]),
    cut: fc.nat({ max: 12 }),
    separator: fc.constantFrom("---", "--- ", "----", "---\r", "+++"),
    body: fc.string({ maxLength: 30 }),
  })
  .map(({ set, drop, cut, separator, body }) => {
    const fields: Record<string, string> = {
      name: "prop",
      description: "a test profile",
      maxSteps: "12",
      tools: `[${BUILTIN_TOOL_NAMES.slice(0, 3).join(", ")}]`,
      ...set,
    };
    for (const f of drop) delete fields[f];
    const lines = ["---", ...Object.entries(fields).map(([k, v]) => `${k}: ${v}`), separator, body];
    if (cut > 0 && cut < lines.length) lines.splice(cut, 1);
    return lines.join("\n");
  });

describe("parseProfile", () => {
  it("on arbitrary text returns a valid profile or throws an Error naming the file", () => {
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 200 }),
      fc.string({ maxLength: 200 }).map((s) => `---\n${s}\n---\n`),
      fc.array(fc.oneof(fc.constantFrom("---", "name: x", "tools: [", "  - a", ": :", "? x", "%YAML 1.2", "\t"), fc.string({ maxLength: 10 })), { maxLength: 8 }).map((l) => l.join("\n")),
    );
    fc.assert(fc.property(text, (t) => parsesOrNamesTheFile(t)), { numRuns: 200 });
  });

  it("on mutated valid front matter returns a valid profile or throws an Error naming the file", () => {
    fc.assert(fc.property(mutatedProfile, (t) => parsesOrNamesTheFile(t)), { numRuns: 200 });
  });
});
