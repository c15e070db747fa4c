import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { useApi } from "./harness";

const api = useApi();

async function rootConfig(rootAgentId: string): Promise<unknown> {
  const [row] = await api.pg.db.sql<{ config: unknown }[]>`SELECT config FROM agents WHERE id = ${rootAgentId}`;
  return row?.config;
}

describe("session.create", () => {
  it("stores baseUrl and maxSteps as the root agent's config", async () => {
    const t = api.client();
    const { sessionId, rootAgentId } = await t.session.create.mutate({
      mode: "interactive",
      model: "openai-compatible:qwen3",
      baseUrl: "http://127.0.0.1:11434/v1",
      maxSteps: 7,
    });
    expect(await rootConfig(rootAgentId)).toEqual({ baseUrl: "http://127.0.0.1:11434/v1", maxSteps: 7 });
    const session = await t.session.get.query({ sessionId });
    expect(session.root.model).toBe("openai-compatible:qwen3");
  });

  it("leaves the config empty when neither is given", async () => {
    const { rootAgentId } = await api.client().session.create.mutate({ mode: "headless" });
    expect(await rootConfig(rootAgentId)).toEqual({});
  });

  it("refuses a base URL that is not a URL, or a step cap out of range, and creates nothing", async () => {
    const t = api.client();
    const [before] = await api.pg.db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM sessions`;
    const cases = [
      { baseUrl: "localhost:11434" },
      { baseUrl: "file:///etc/passwd" },
      { maxSteps: 0 },
      { maxSteps: 2.5 },
      { maxSteps: 5000 },
      { maxSteps: "3" as unknown as number },
    ];
    for (const extra of cases) {
      const error = await t.session.create.mutate({ mode: "headless", ...extra }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, JSON.stringify(extra)).toBeInstanceOf(TRPCClientError);
      expect((error as { data?: { code?: string } }).data?.code, JSON.stringify(extra)).toBe("BAD_REQUEST");
    }
    const [after] = await api.pg.db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM sessions`;
    expect(after!.n).toBe(before!.n);
  });
});
