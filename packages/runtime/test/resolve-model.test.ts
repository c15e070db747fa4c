import { describe, expect, it } from "vitest";
import { runtimeEnv } from "../src/env";
import { createModelResolver } from "../src/models/resolve-model";

describe("model resolver", () => {
  it("makes one model object per model and base URL, and does not remember a ref it could not resolve", async () => {
    const resolver = createModelResolver(runtimeEnv({ HANDOFF_BASE_URL: "http://127.0.0.1:9/v1" }));
    try {
      const a = await resolver.resolve("openai-compatible:m1");
      expect(await resolver.resolve("openai-compatible:m1")).toBe(a);
      expect(await resolver.resolve("openai-compatible:m2")).not.toBe(a);
      expect(await resolver.resolve("openai-compatible:m1", { baseUrl: "http://127.0.0.1:10/v1" })).not.toBe(a);
      await expect(resolver.resolve("openai:gpt")).rejects.toThrow(/OPENAI_API_KEY/);
      await expect(resolver.resolve("openai:gpt")).rejects.toThrow(/OPENAI_API_KEY/);
    } finally {
      await resolver.close();
    }
  });
});
