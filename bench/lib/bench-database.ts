import { dbEnv } from "@handoff/db";
import { createTestDatabase, type TestDatabase } from "@handoff/db/testing";
import { startTestServer, type TestServer } from "@handoff/db/testing/server";
import { describeMachine, type Machine } from "./machine";

export interface BenchServer {
  server: TestServer;
  machine: Machine;
  /** A fresh migrated database, dropped (and checked for leftover connections) after `fn`. */
  withDatabase<T>(fn: (database: TestDatabase) => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

/**
 * The Postgres a benchmark runs on: DATABASE_URL's server when set, else an embedded one in a
 * temporary directory (as the tests do). Every database is a clone of one migrated template.
 */
export async function startBenchServer(): Promise<BenchServer> {
  const url = dbEnv().DATABASE_URL;
  const server = await startTestServer(url);
  let machine: Machine;
  const probe = await createTestDatabase(server.adminUrl, server.template);
  try {
    machine = await describeMachine(probe.db.sql, url !== undefined);
  } finally {
    await probe.drop();
  }
  return {
    server,
    machine,
    async withDatabase(fn) {
      const database = await createTestDatabase(server.adminUrl, server.template);
      try {
        return await fn(database);
      } finally {
        await database.drop();
      }
    },
    stop: () => server.stop(),
  };
}
