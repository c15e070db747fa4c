import { spawn, type ChildProcess } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import readline from "node:readline";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const cliMain = fileURLToPath(new URL("../../packages/cli/src/main.ts", import.meta.url));

export interface BenchProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  /** Exit code, or the signal's name. */
  exited: Promise<number | string>;
  /** The last lines it printed (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL; resolves once it has exited. */
  kill(): Promise<void>;
}

const alive = new Set<ChildProcess>();
let hooked = false;

/** Whatever happens to the benchmark (an error, Ctrl-C), no process it spawned outlives it. */
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  const killAll = () => {
    for (const c of alive) c.kill("SIGKILL");
  };
  process.once("exit", killAll);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(130);
    });
  }
}

/**
 * Starts `node --import tsx <script> …args` from the repository root and waits (at most
 * `timeoutMs`) for a line of its output that `ready` accepts; returns the process and that line.
 */
export async function spawnTs(
  name: string,
  script: string,
  args: string[],
  opts: { env?: Record<string, string>; nodeArgs?: string[]; ready: (line: string) => boolean; timeoutMs?: number },
): Promise<BenchProcess & { readyLine: string }> {
  hookExit();
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), "--import", "tsx", script, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  alive.add(child);
  const tail: string[] = [];
  const keep = (line: string) => {
    tail.push(line);
    if (tail.length > 50) tail.shift();
  };
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => {
      alive.delete(child);
      resolve(code ?? signal ?? "unknown");
    }),
  );
  let onLine: ((line: string) => void) | null = null;
  for (const stream of [child.stdout!, child.stderr!]) {
    readline.createInterface({ input: stream }).on("line", (line) => {
      keep(line);
      onLine?.(line);
    });
  }
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const readyLine = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} not ready after ${timeoutMs} ms:\n${tail.join("\n")}`)), timeoutMs);
    onLine = (line) => {
      if (!opts.ready(line)) return;
      clearTimeout(timer);
      onLine = null;
      resolve(line);
    };
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before it was ready:\n${tail.join("\n")}`));
    });
  }).catch(async (e: unknown) => {
    child.kill("SIGKILL");
    await exited;
    throw e;
  });
  const waitExit = async (ms: number) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    await exited;
    clearTimeout(timer);
  };
  return {
    name,
    child,
    pid: child.pid!,
    exited,
    readyLine,
    output: () => tail.join("\n"),
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await waitExit(graceMs);
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
}

export interface HandoffWorker extends BenchProcess {
  /** Its id in `workers` (from its "worker started" log line). */
  workerId: string;
}

/**
 * A real `handoff worker` process (packages/cli: the worker pool with the agent runtime as
 * its driver), configured through the environment as an operator would.
 */
export async function spawnHandoffWorker(opts: {
  databaseUrl: string;
  concurrency: number;
  env?: Record<string, string>;
  nodeArgs?: string[];
}): Promise<HandoffWorker> {
  const p = await spawnTs("handoff worker", cliMain, ["worker", "--concurrency", String(opts.concurrency)], {
    env: { DATABASE_URL: opts.databaseUrl, HANDOFF_LOG_LEVEL: "info", ...opts.env },
    nodeArgs: opts.nodeArgs,
    ready: (line) => line.includes('"worker started"'),
    timeoutMs: 60_000,
  });
  const workerId = String((JSON.parse(p.readyLine) as { workerId?: string }).workerId);
  return { ...p, workerId };
}

/** `handoff sim --port P --scenario FILE` as a process of its own; resolves with its base URL. */
export async function spawnModelSim(scenarioFile: string): Promise<BenchProcess & { url: string }> {
  const p = await spawnTs("handoff sim", cliMain, ["sim", "--port", "0", "--scenario", scenarioFile], {
    ready: (line) => line.startsWith("model-sim listening"),
  });
  const url = /(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(p.readyLine)?.[1];
  if (!url) throw new Error(`cannot read model-sim's URL from: ${p.readyLine}`);
  return { ...p, url };
}

/** Peak and current resident set of a live process, in MiB, from /proc/<pid>/status. */
export async function memoryOf(pid: number): Promise<{ peakRssMiB: number; rssMiB: number } | null> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => null);
  if (!status) return null;
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { peakRssMiB: kib("VmHWM") / 1024, rssMiB: kib("VmRSS") / 1024 };
}

/** CPU time (user + system) a live process has used so far, in seconds, from /proc/<pid>/stat. */
export async function cpuSecondsOf(pid: number): Promise<number | null> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (!stat) return null;
  // Fields after the command name (which may hold spaces) start at the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100;
}

/**
 * CPU time used so far by one PostgreSQL server (its postmaster and every process it forked:
 * backends, WAL writer, checkpointer…), in seconds. `backendPid` is any backend of it
 * (`SELECT pg_backend_pid()`); the server must run on this machine. Backends that exit between
 * two readings take their time with them, so compare readings taken while the same
 * connections stay open.
 */
export async function postgresCpuSeconds(backendPid: number): Promise<number> {
  const postmaster = await parentOf(backendPid);
  if (postmaster === null) return NaN;
  let total = (await cpuSecondsOf(postmaster)) ?? 0;
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry) || (await parentOf(Number(entry))) !== postmaster) continue;
    total += (await cpuSecondsOf(Number(entry))) ?? 0;
  }
  return total;
}

async function parentOf(pid: number): Promise<number | null> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (!stat) return null;
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}
