import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { startEmbeddedPostgres } from "../embedded";
import { runMigrations } from "../migrate";

export interface TestServer {
  /** URL of a database on the server from which other databases can be created. */
  adminUrl: string;
  /** Name of the migrated template that each test file clones. */
  template: string;
  stop(): Promise<void>;
}

/**
 * The Postgres that a test run uses: the server DATABASE_URL names, or an embedded one in a
 * temporary directory on a free port. Either way a fresh template database is migrated once.
 */
export async function startTestServer(databaseUrl: string | undefined): Promise<TestServer> {
  let dir: string | null = null;
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | null = null;
  if (!databaseUrl) {
    dir = await mkdtemp(path.join(os.tmpdir(), "handoff-test-pg-"));
    embedded = await startEmbeddedPostgres({ dir: path.join(dir, "pg"), port: await freePort(), database: "postgres" });
  }
  const adminUrl = databaseUrl ?? embedded!.url;
  const template = `handoff_tpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${template}"`);
  await runMigrations(withDatabase(adminUrl, template));
  return {
    adminUrl,
    template,
    async stop() {
      await admin.unsafe(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
      await admin.end();
      await embedded?.stop();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
