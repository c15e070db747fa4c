import { spawn } from "node:child_process";
import path from "node:path";
import { rootDir } from "../../src/paths";

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the `handoff` command as a user would (`bin/handoff.js`) and collects its output. */
export function runHandoff(args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(rootDir, "packages/cli/bin/handoff.js"), ...args], {
      cwd: rootDir,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}
