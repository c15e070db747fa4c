import { createDb, type Db } from "@handoff/db/client";
import { env } from "./env";

const globalForDb = globalThis as unknown as { handoffDb?: Db };

/** One pool per web process (kept across dev-mode reloads). */
export function db(): Db {
  globalForDb.handoffDb ??= createDb(env().DATABASE_URL, { max: 10, applicationName: "handoff-web" });
  return globalForDb.handoffDb;
}
