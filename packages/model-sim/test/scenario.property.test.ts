import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseScenario, Scenario } from "../src/index";

const SOURCE = "scenarios/prop.json";

/** Either a scenario that validates, or an Error naming the source: nothing else may come out. */
function parsesOrNamesTheSource(json: unknown): void {
  let scenario: unknown;
  try {
    scenario = parseScenario(json, SOURCE);
  } catch (e) {
    expect(e).toBeInstanceOf(Error);
    expect((e as Error).message.startsWith(`${SOURCE}: invalid scenario: `), (e as Error).message).toBe(true);
    return;
  }
  expect(Scenario.safeParse(scenario).success).toBe(true);
}

const STEP_FIELDS = ["text", "toolCalls", "finish", "error", "delayMs", "usage", "malformedToolCallJson", "resetAfterChunks", "repeatForever", "tool_calls"];
const anyJson = fc.jsonValue({ maxDepth: 3 });

/** Plausible or broken values for each step field, so most steps get past the shape and into the rules. */
const fieldValue: Record<string, fc.Arbitrary<unknown>> = {
  text: fc.oneof(fc.string(), anyJson),
  toolCalls: fc.oneof(
    fc.array(fc.record({ name: fc.oneof(fc.constantFrom("reply", "read_file", ""), fc.string()), args: fc.oneof(fc.dictionary(fc.string(), anyJson), anyJson), ifOffered: fc.oneof(fc.boolean(), anyJson) }, { requiredKeys: [] }), { maxLength: 3 }),
    anyJson,
  ),
  finish: fc.oneof(fc.constantFrom("stop", "length", "tool_calls", "content_filter", "tool-calls"), anyJson),
  error: fc.oneof(fc.record({ status: fc.oneof(fc.integer({ min: 300, max: 700 }), anyJson), retryAfterSeconds: fc.oneof(fc.double(), anyJson), message: anyJson }, { requiredKeys: [] }), anyJson),
  delayMs: fc.oneof(fc.integer({ min: -10, max: 700_000 }), fc.double(), anyJson),
  usage: fc.oneof(fc.record({ input: fc.oneof(fc.integer(), anyJson), output: fc.oneof(fc.integer(), anyJson) }, { requiredKeys: [] }), anyJson),
  malformedToolCallJson: fc.oneof(fc.boolean(), anyJson),
  resetAfterChunks: fc.oneof(fc.integer({ min: -2, max: 10 }), anyJson),
  repeatForever: fc.oneof(fc.boolean(), anyJson),
  tool_calls: anyJson,
};

const step = fc
  .subarray(STEP_FIELDS, { maxLength: 4 })
  .chain((fields) => fc.record(Object.fromEntries(fields.map((f) => [f, fieldValue[f]!]))));
const scenario = fc.record(
  { agents: fc.oneof(fc.dictionary(fc.oneof(fc.constantFrom("*", "general", "", "__proto__", "constructor"), fc.string()), fc.oneof(fc.array(step, { maxLength: 4 }), anyJson)), anyJson) },
  { requiredKeys: [] },
);

describe("parseScenario", () => {
  it("on arbitrary JSON parses or throws an Error naming the source", () => {
    fc.assert(fc.property(anyJson, (json) => parsesOrNamesTheSource(json)), { numRuns: 200 });
  });

  it("on scenario-shaped JSON with broken fields parses or throws an Error naming the source", () => {
    fc.assert(fc.property(scenario, (json) => parsesOrNamesTheSource(json)), { numRuns: 200 });
  });
});
