import { spawn, type ChildProcess } from "node:child_process";
import readline from "node:readline";

export interface Supervised {
  name: string;
  child: ChildProcess;
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  exited: Promise<number | string>;
}

/** Spawns a child whose output lines are prefixed with its name, like `[web] …`. */
export function supervise(
  name: string,
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv },
): Supervised {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    if (!stream) continue;
    readline.createInterface({ input: stream }).on("line", (line) => out.write(`[${name}] ${line}\n`));
  }
  const exited = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown"));
    child.once("error", (e) => {
      process.stderr.write(`[${name}] failed to start: ${e.message}\n`);
      resolve("spawn-error");
    });
  });
  return { name, child, exited };
}

/** SIGTERM, then SIGKILL after `graceMs` if the process is still there. */
export async function stopChild(p: Supervised, graceMs = 10_000): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill("SIGTERM");
  const timer = setTimeout(() => p.child.kill("SIGKILL"), graceMs);
  await p.exited;
  clearTimeout(timer);
}
