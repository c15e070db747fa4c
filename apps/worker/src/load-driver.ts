import path from "node:path";
import { pathToFileURL } from "node:url";
import type { SessionDriver } from "./driver";

/**
 * Loads a session driver from a module: its `driver` or default export, either a
 * `SessionDriver` or a function returning one (sync or async).
 */
export async function loadDriver(modulePath: string): Promise<SessionDriver> {
  const url = pathToFileURL(path.resolve(modulePath)).href;
  const mod = (await import(url)) as { driver?: unknown; default?: unknown };
  let candidate = mod.driver ?? mod.default;
  if (typeof candidate === "function") candidate = await (candidate as () => unknown)();
  if (!isDriver(candidate)) {
    throw new Error(`${modulePath} exports no session driver (a \`driver\` or default export with a drive(ctx) method)`);
  }
  return candidate;
}

function isDriver(v: unknown): v is SessionDriver {
  return typeof v === "object" && v !== null && typeof (v as SessionDriver).drive === "function";
}
