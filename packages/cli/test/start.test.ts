import { spawn } from "node:child_process";
import net from "node:net";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "@handoff/db/testing/server";
import { rootDir } from "../src/paths";

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** True when something accepts connections on the port. */
function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function waitFor(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe("npm start", () => {
  it("brings up embedded Postgres, the web app and a worker, answers /api/health, and stops cleanly on Ctrl-C", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "handoff-start-"));
    dirs.push(dataDir);
    const [port, pgPort] = [await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HANDOFF_PG_PORT: String(pgPort), HANDOFF_DATA_DIR: dataDir };
    delete env.DATABASE_URL; // the default path: embedded Postgres
    // Its own process group, as a terminal gives it: Ctrl-C signals the whole group.
    const child = spawn("npm", ["start"], { cwd: rootDir, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    child.stdout.on("data", (d) => (log += d));
    child.stderr.on("data", (d) => (log += d));
    // npm, like a shell, exits by the signal itself on Ctrl-C; what matters is how handoff stopped.
    const exited = new Promise<string>((resolve) => child.once("exit", (code, signal) => resolve(String(code ?? signal))));
    const pgid = child.pid!;
    try {
      const healthy = await waitFor(async () => {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
        if (!res?.ok) return false;
        expect(await res.json()).toEqual({ ok: true, db: "up" });
        return true;
      }, 60_000);
      if (!healthy) throw new Error(`/api/health did not answer within 60 s; log:\n${log}`);
      expect(log).toContain("embedded PostgreSQL");

      // Local mode: an admin token was created, saved and printed as a sign-in link (after health).
      await waitFor(() => log.includes("local mode: sign in"), 15_000);
      const token = (await readFile(path.join(dataDir, "local-admin-token"), "utf8")).trim();
      expect(log).toContain(`/api/auth/login?token=${token}`);
      const auth = { authorization: `Bearer ${token}` };
      const unauthorized = await fetch(`http://127.0.0.1:${port}/api/trpc/session.list?input=%7B%7D`);
      expect(unauthorized.status).toBe(401);

      // With no configuration the model is sim:demo: a session runs end to end through the worker.
      const api = `http://127.0.0.1:${port}/api/trpc`;
      const created = await fetch(`${api}/session.create`, {
        method: "POST",
        headers: { "content-type": "application/json", ...auth },
        body: JSON.stringify({ mode: "headless", prompt: "hello" }),
      }).then((r) => r.json() as Promise<{ result: { data: { sessionId: string } } }>);
      const sessionId = created.result.data.sessionId;
      let session: { status: string; agents: number; root: { verdict: string; stopReason: string; replyValue: string } } | undefined;
      const ended = await waitFor(async () => {
        const input = encodeURIComponent(JSON.stringify({ sessionId }));
        const body = (await fetch(`${api}/session.get?input=${input}`, { headers: auth }).then((r) => r.json())) as {
          result: { data: typeof session };
        };
        session = body.result.data;
        return session?.status === "ended";
      }, 30_000);
      expect(ended, `session did not end; log:\n${log}`).toBe(true);
      expect(session).toMatchObject({ agents: 3, root: { stopReason: "reply", verdict: "COMPLETE" } });
      expect(session!.root.replyValue).toContain("Demo summary");
    } finally {
      process.kill(-pgid, "SIGINT");
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("timeout"), 30_000))]);
      const gone = await waitFor(() => !groupAlive(pgid), 15_000);
      if (!gone) process.kill(-pgid, "SIGKILL");
      expect(["0", "SIGINT"], log).toContain(code);
      expect(gone, `processes left behind:\n${log}`).toBe(true);
      // The embedded server runs in a group of its own: Ctrl-C does not reach it, npm start stops it last.
      const pgDown = await waitFor(async () => !(await portOpen(pgPort)), 15_000);
      if (!pgDown) {
        const pid = Number((await readFile(path.join(dataDir, "pg", "postmaster.pid"), "utf8")).split("\n")[0]);
        process.kill(pid, "SIGKILL");
      }
      expect(pgDown, `embedded Postgres still up after npm start stopped:\n${log}`).toBe(true);
    }
    expect(log).toContain("handoff: stopped");
    // The worker drained with its database still up: leases released, no lost connection.
    expect(log).toContain("leases released for drain");
    expect(log).not.toMatch(/drain did not complete|could not mark the worker draining|CONNECTION_CLOSED/);
    // The ports are free again.
    const reopened = await fetch(`http://127.0.0.1:${port}/api/health`).then(() => true, () => false);
    expect(reopened).toBe(false);
  });

  it("fails with a clear message, not a hang, when the web port is taken", async () => {
    const net = await import("node:net");
    const server = net.createServer();
    const port = await new Promise<number>((resolve) =>
      server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
    );
    try {
      const env = { ...process.env, PORT: String(port), HANDOFF_PG_PORT: String(await freePort()) };
      const child = spawn(process.execPath, ["--import", "tsx", path.join(rootDir, "packages/cli/src/main.ts"), "start"], {
        cwd: rootDir,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let err = "";
      child.stderr.on("data", (d) => (err += d));
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      expect(code).toBe(1);
      expect(err).toContain(`port ${port} (web app) is already in use`);
    } finally {
      server.close();
    }
  });
});
