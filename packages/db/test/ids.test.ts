import { describe, expect, it } from "vitest";
import { newId } from "../src/ids";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const timeOf = (id: string) => [...id.split("_")[1]!.slice(0, 10)].reduce((t, c) => t * 32 + ALPHABET.indexOf(c), 0);

describe("newId", () => {
  it("is the prefix and a ULID: ten characters of the creation time, sixteen random ones", () => {
    const before = Date.now();
    const id = newId("msg");
    const after = Date.now();
    expect(id).toMatch(/^msg_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(timeOf(id)).toBeGreaterThanOrEqual(before);
    expect(timeOf(id)).toBeLessThanOrEqual(after);
  });

  it("sorts by creation time and does not repeat across refills of the random pool", async () => {
    const early = newId("ses");
    await new Promise((r) => setTimeout(r, 2));
    expect(newId("ses") > early).toBe(true);
    const many = Array.from({ length: 20_000 }, () => newId("tok"));
    expect(new Set(many).size).toBe(many.length);
    // Every random character is used: the low five bits of a byte cover the alphabet.
    expect(new Set(many.flatMap((id) => [...id.slice(14)])).size).toBe(32);
  });
});
