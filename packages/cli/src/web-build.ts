import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { rootDir, webDir } from "./paths";

/** Sources whose change makes the web build stale. */
const SOURCE_DIRS = ["apps/web/app", "apps/web/src", "packages/api/src", "packages/db/src", "packages/sdk/src"];
const SOURCE_FILES = ["apps/web/next.config.ts", "apps/web/package.json"];

/** Builds the Next.js app when it has never been built or a source is newer than the build. */
export async function ensureWebBuild(log: (line: string) => void): Promise<void> {
  const buildId = path.join(webDir, ".next/BUILD_ID");
  const builtAt = existsSync(buildId) ? (await stat(buildId)).mtimeMs : 0;
  const newest = await newestSourceMtime();
  if (builtAt > newest) return;
  log(builtAt === 0 ? "building the web app (first run, ~20 s)…" : "sources changed since the last build; rebuilding the web app…");
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [nextBin(), "build"], {
      cwd: webDir,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.once("exit", (c) => resolve(c ?? 1));
  });
  if (code !== 0) throw new Error(`the web app failed to build (next build exited with ${code})`);
}

/** Next's CLI as the web app resolves it (hoisted or not). */
export function nextBin(): string {
  return createRequire(path.join(webDir, "package.json")).resolve("next/dist/bin/next");
}

async function newestSourceMtime(): Promise<number> {
  let newest = 0;
  const visit = async (p: string): Promise<void> => {
    const s = await stat(p).catch(() => null);
    if (!s) return;
    if (s.isDirectory()) {
      for (const entry of await readdir(p)) await visit(path.join(p, entry));
    } else if (s.mtimeMs > newest) {
      newest = s.mtimeMs;
    }
  };
  for (const rel of [...SOURCE_DIRS, ...SOURCE_FILES]) await visit(path.join(rootDir, rel));
  return newest;
}
