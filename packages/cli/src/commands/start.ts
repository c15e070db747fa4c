import { assertPortFree, openDatabase, type OpenedDatabase } from "@handoff/db";
import { cliEnv } from "../env";
import { localAdminToken } from "../local-token";
import path from "node:path";
import { cliMain, webDir } from "../paths";
import { stopChild, supervise, type Supervised } from "../supervise";
import { ensureWebBuild, nextBin } from "../web-build";

const say = (line: string) => process.stdout.write(`handoff: ${line}\n`);

/**
 * `npm start`: the database (embedded unless DATABASE_URL is set, migrated), the web app
 * and HANDOFF_WORKERS worker processes; Ctrl-C (or SIGTERM) stops all of them.
 */
export async function startCommand(): Promise<number> {
  const env = cliEnv();
  await assertPortFree(env.PORT, "web app", "PORT");
  await ensureWebBuild(say);

  const database = await openDatabase(env, { applicationName: "handoff-start" });
  say(
    database.kind === "embedded"
      ? `database: embedded PostgreSQL on port ${env.HANDOFF_PG_PORT}, data in ${env.HANDOFF_DATA_DIR}/pg (migrated)`
      : "database: DATABASE_URL (migrated)",
  );
  // Children run in other directories (the web app in apps/web): hand them absolute paths.
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    HANDOFF_DATA_DIR: path.resolve(env.HANDOFF_DATA_DIR),
    HANDOFF_AGENTS_DIR: path.resolve(env.HANDOFF_AGENTS_DIR),
    NEXT_TELEMETRY_DISABLED: "1",
  };
  const children: Supervised[] = [
    supervise("web", process.execPath, [nextBin(), "start", "-p", String(env.PORT), "-H", env.HANDOFF_HOST], {
      cwd: webDir,
      env: childEnv,
    }),
  ];
  for (let i = 1; i <= env.HANDOFF_WORKERS; i++) {
    children.push(supervise(`worker-${i}`, process.execPath, ["--import", "tsx", cliMain, "worker"], { env: childEnv }));
  }

  let stopping: Promise<void> | null = null;
  /** Stops every child, then the database; every caller waits for the same stop. */
  const stopAll = (reason: string): Promise<void> =>
    (stopping ??= (async () => {
      say(`stopping (${reason})…`);
      await Promise.all(children.map((c) => stopChild(c)));
      await closeQuietly(database);
      say("stopped");
    })());

  const web = `http://${env.HANDOFF_HOST}:${env.PORT}`;
  // Local mode: with the embedded database, a local admin token signs the dashboard in.
  const signIn = database.kind === "embedded" ? `${web}/api/auth/login?token=${await localAdminToken(database.db, env.HANDOFF_DATA_DIR)}` : null;
  const stopped = new Promise<number>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      // `on`, not `once`: a repeated Ctrl-C (tsx forwards it twice) must not kill us mid-stop.
      process.on(signal, () => void stopAll(signal).then(() => resolve(0)));
    }
    for (const c of children) {
      void c.exited.then(async (code) => {
        if (stopping) return;
        say(`${c.name} exited unexpectedly (${code}); shutting down`);
        await stopAll(`${c.name} exited`);
        resolve(1);
      });
    }
  });

  const healthy = await waitForHealth(`${web}/api/health`, 60_000, () => stopping !== null);
  if (healthy) {
    say(`ready — web ${web} · health ${web}/api/health · workers ${env.HANDOFF_WORKERS} · Ctrl-C to stop`);
    if (signIn) say(`local mode: sign in at ${signIn} (admin token saved in ${env.HANDOFF_DATA_DIR}/local-admin-token)`);
    else say("sign in with an API token: handoff token create --role admin --workspace default");
  } else if (!stopping) {
    say(`the web app did not answer ${web}/api/health within 60 s`);
    await stopAll("web app not healthy");
    return 1;
  }
  return stopped;
}

async function waitForHealth(url: string, timeoutMs: number, cancelled: () => boolean): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !cancelled()) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return true;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

async function closeQuietly(database: OpenedDatabase): Promise<void> {
  // On Ctrl-C the terminal signals the embedded server too; it may already be down.
  await database.close().catch(() => {});
}
