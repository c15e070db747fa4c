import postgres from "postgres";
import { createDb, type Db } from "../client";
import { withDatabase } from "./test-server";

export interface TestDatabase {
  name: string;
  url: string;
  /** A pool on the database, closed by `drop()`. */
  db: Db;
  /** Closes the pool and drops the database; fails when something else still holds a connection. */
  drop(): Promise<void>;
}

/**
 * Clones the run's migrated template into a database of the test file's own. Dropping it
 * first checks that nothing else is connected: a test that leaves a worker or a pool open
 * fails here rather than leaking into the next file.
 */
export async function createTestDatabase(adminUrl: string, template: string): Promise<TestDatabase> {
  const name = `handoff_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      break;
    } catch (e) {
      // Two clones at the same instant can see each other on the template; try again.
      if (attempt >= 20 || !String((e as Error).message).includes("being accessed")) throw e;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
    }
  }
  const url = withDatabase(adminUrl, name);
  const db = createDb(url, { max: 10, applicationName: "handoff-test" });
  return {
    name,
    url,
    db,
    async drop() {
      await db.close();
      try {
        const open = await waitForNoConnections(admin, name);
        if (open.length > 0) {
          throw new Error(
            `test left ${open.length} connection(s) open on ${name}: ${open.map((o) => o.app || "(unnamed)").join(", ")}`,
          );
        }
      } finally {
        await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.end();
      }
    },
  };
}

async function waitForNoConnections(admin: postgres.Sql, name: string): Promise<{ app: string }[]> {
  // A pool that was just closed may take a moment to disappear from pg_stat_activity.
  let open: { app: string }[] = [];
  for (let i = 0; i < 40; i++) {
    open = await admin<{ app: string }[]>`
      SELECT application_name AS app FROM pg_stat_activity WHERE datname = ${name} AND pid <> pg_backend_pid()`;
    if (open.length === 0) return open;
    await new Promise((r) => setTimeout(r, 50));
  }
  return open;
}
