import { describe, expect, it } from "vitest";
import { builtinTools } from "../src/index";

describe("tool schemas", () => {
  it("show the model the same JSON Schema for every built-in tool (snapshot)", () => {
    const shown = Object.fromEntries(
      Object.values(builtinTools).map((t) => [t.id, { description: t.description, inputSchema: t.inputSchema }]),
    );
    expect(shown).toMatchSnapshot();
  });

  it("take reply's value as a string, an object or an array, and nothing else", () => {
    const schema = builtinTools.reply!.inputSchema as { properties: { value: { anyOf: { type: string }[] } }; required: string[] };
    expect(schema.required).toEqual(["value"]);
    expect(schema.properties.value.anyOf.map((s) => s.type)).toEqual(["string", "object", "array"]);
  });
});
