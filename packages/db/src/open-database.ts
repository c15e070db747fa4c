import path from "node:path";
import { createDb, type Db } from "./client";
import { startEmbeddedPostgres } from "./embedded";
import type { DbEnv } from "./env";
import { runMigrations } from "./migrate";

export interface OpenedDatabase {
  url: string;
  /** "external" when DATABASE_URL named the server, "embedded" when we started one. */
  kind: "external" | "embedded";
  db: Db;
  /** Closes the pool, then stops the embedded server if we started it. */
  close(): Promise<void>;
}

/**
 * The database a Handoff process starts with: DATABASE_URL when set, else an embedded
 * PostgreSQL under `<HANDOFF_DATA_DIR>/pg`. Migrations run before it is handed out.
 */
export async function openDatabase(
  env: DbEnv,
  options: { log?: (line: string) => void; applicationName?: string } = {},
): Promise<OpenedDatabase> {
  const embedded = env.DATABASE_URL
    ? null
    : await startEmbeddedPostgres({
        dir: path.join(path.resolve(env.HANDOFF_DATA_DIR), "pg"),
        port: env.HANDOFF_PG_PORT,
        log: options.log,
        // Ctrl-C reaches the command, which stops its workers and web app before the server.
        ownProcessGroup: true,
      });
  const url = env.DATABASE_URL ?? embedded!.url;
  try {
    await runMigrations(url);
  } catch (e) {
    await embedded?.stop();
    throw e;
  }
  const db = createDb(url, { applicationName: options.applicationName ?? "handoff" });
  return {
    url,
    kind: embedded ? "embedded" : "external",
    db,
    close: async () => {
      await db.close();
      await embedded?.stop();
    },
  };
}
