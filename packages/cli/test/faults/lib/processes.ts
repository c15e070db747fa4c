import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { onTestFailed, onTestFinished } from "vitest";
import { rootDir } from "../../../src/paths";

/** A real child process of the test: a `handoff worker`, or the API server. */
export interface Spawned {
  name: string;
  child: ChildProcess;
  /** Exit code, or the signal's name. */
  exited: Promise<number | string>;
  /** Everything it printed (stdout and stderr), for failure messages. */
  output(): string;
  alive(): boolean;
  /** SIGKILL, and wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (a worker drains), and wait for the exit. */
  stop(): Promise<number | string>;
}

const handoffBin = path.join(rootDir, "packages/cli/bin/handoff.js");

/**
 * Starts a process and kills it (SIGKILL) when the test ends if it is still running, so no
 * worker or server outlives its test and keeps a connection to the test database.
 */
export function spawnProcess(name: string, args: string[], env: NodeJS.ProcessEnv): Spawned {
  const child = spawn(process.execPath, args, {
    cwd: rootDir,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  const keep = (d: Buffer) => {
    text += d.toString();
    // A long run's logs: the tail is what explains a failure.
    if (text.length > 200_000) text = text.slice(-100_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  const kill = async () => {
    if (alive()) child.kill("SIGKILL");
    await exited;
  };
  onTestFinished(kill);
  onTestFailed(() => {
    process.stderr.write(`\n--- ${name} (pid ${child.pid}) output ---\n${text.slice(-20_000)}\n--- end of ${name} ---\n`);
  });
  return {
    name,
    child,
    exited,
    output: () => text,
    alive,
    kill,
    async stop() {
      if (alive()) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** `handoff worker` — the real worker process running the agent runtime — with the given environment. */
export function spawnWorker(env: NodeJS.ProcessEnv, { name = "worker", concurrency = 4 } = {}): Spawned {
  return spawnProcess(name, [handoffBin, "worker", "--concurrency", String(concurrency)], env);
}
