import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import readline from "node:readline";
import { waitFor } from "./wait-for";

const script = fileURLToPath(new URL("../fixtures/run-test-worker.ts", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

export interface WorkerFlags {
  concurrency?: number;
  leaseTtlMs?: number;
  pollMs?: number;
  drainGraceMs?: number;
  heartbeatMs?: number;
  stepMs?: number;
  ignoreSignal?: boolean;
}

export type LogLine = Record<string, unknown> & { msg?: string; sessionId?: string };

export interface WorkerProcess {
  /** The worker's id in `workers`, read from its "worker started" log line. */
  id: string;
  child: ChildProcess;
  /** Every JSON line it printed so far. */
  logs: LogLine[];
  /** Exit code, or the signal's name. */
  exited: Promise<number | string>;
  waitForLog(what: string, match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Non-JSON output (stderr, crashes), for failure messages. */
  stderr(): string;
}

const spawned = new Set<ChildProcess>();

/** Starts a real worker process running the test driver against `databaseUrl`. */
export async function spawnWorker(databaseUrl: string, flags: WorkerFlags = {}): Promise<WorkerProcess> {
  const args = ["--import", "tsx", script];
  const put = (flag: string, v: number | undefined) => v !== undefined && args.push(`--${flag}`, String(v));
  put("concurrency", flags.concurrency);
  put("lease-ttl-ms", flags.leaseTtlMs);
  put("poll-ms", flags.pollMs);
  put("drain-grace-ms", flags.drainGraceMs);
  put("heartbeat-ms", flags.heartbeatMs);
  put("step-ms", flags.stepMs);
  if (flags.ignoreSignal) args.push("--ignore-signal");
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl, HANDOFF_LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  spawned.add(child);
  const logs: LogLine[] = [];
  let errText = "";
  readline.createInterface({ input: child.stdout! }).on("line", (line) => {
    try {
      logs.push(JSON.parse(line) as LogLine);
    } catch {
      errText += `${line}\n`;
    }
  });
  child.stderr!.on("data", (d) => (errText += d));
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => {
      spawned.delete(child);
      resolve(code ?? signal ?? "unknown");
    }),
  );
  const waitForLog = (what: string, match: (line: LogLine) => boolean, timeoutMs = 20_000) =>
    waitFor(what, () => {
      if (child.exitCode !== null) throw new Error(`worker exited (${child.exitCode}) before ${what}:\n${errText}`);
      return logs.find(match);
    }, { timeoutMs, intervalMs: 20 });
  const started = await waitForLog("the worker to start", (l) => l.msg === "worker started");
  return { id: String(started.workerId), child, logs, exited, waitForLog, stderr: () => errText };
}

/** Kills (SIGCONT first, for a stopped one) every worker process still alive, and waits for each to exit. */
export async function killAllWorkers(): Promise<void> {
  await Promise.all(
    [...spawned].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGKILL");
          child.kill("SIGCONT");
        }),
    ),
  );
}
