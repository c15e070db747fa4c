import { describe, expect, it } from "vitest";
import { useApi } from "./harness";

const api = useApi();

describe("session.list", () => {
  it("pages through every session, newest first, by passing nextCursor back", async () => {
    const t = api.client();
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await t.session.create.mutate({ mode: "interactive", title: `page ${i}` })).sessionId);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { items: { id: string }[]; nextCursor: string | null } = await t.session.list.query({ limit: 2, cursor });
      seen.push(...page.items.map((s) => s.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...created].reverse());
  });
});
