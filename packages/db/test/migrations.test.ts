import { describe, expect, it } from "vitest";
import postgres from "postgres";
import { inject } from "vitest";
import { createDb, runMigrations } from "../src/index";
import { withDatabase } from "../src/testing/index";

describe("migrations", () => {
  it("apply to an empty database and are a no-op the second time", async () => {
    const admin = postgres(inject("pgAdminUrl"), { max: 1, onnotice: () => {} });
    const name = `handoff_mig_${process.pid}_${Date.now().toString(36)}`;
    await admin.unsafe(`CREATE DATABASE "${name}"`);
    const db = createDb(withDatabase(inject("pgAdminUrl"), name), { max: 2 });
    try {
      const tables = () => db.sql<{ t: string }[]>`
        SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`;
      expect(await tables()).toEqual([]);
      await runMigrations(withDatabase(inject("pgAdminUrl"), name));
      const afterFirst = (await tables()).map((r) => r.t);
      expect(afterFirst).toEqual([
        "agent_messages", "agents", "api_tokens", "events", "hook_attempts", "hook_deliveries", "inbox_messages", "model_steps", "sessions",
        "todos", "tool_calls", "turns", "workers",
      ]);
      const [applied] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`;
      await runMigrations(withDatabase(inject("pgAdminUrl"), name));
      const [again] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`;
      expect(again!.n).toBe(applied!.n);
      expect((await tables()).map((r) => r.t)).toEqual(afterFirst);
    } finally {
      await db.close();
      await admin.unsafe(`DROP DATABASE "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
