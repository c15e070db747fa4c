import { existsSync } from "node:fs";
import { realpath } from "node:fs/promises";
import path from "node:path";
import { ToolError } from "./define-tool";

/**
 * Resolves a path the model gave against the workspace and refuses anything that would
 * leave it: absolute paths, `..` that climbs out, and symlinks (of the path or of any
 * existing ancestor) that point outside.
 */
export async function workspacePath(workspaceDir: string, relative: string): Promise<string> {
  // Fix (property tests): the file system refuses NUL in a path with an error naming the absolute path; say it plainly.
  if (relative.includes("\0")) throw new ToolError(`"${relative.replaceAll("\0", "\\0")}" contains a NUL character`);
  if (path.isAbsolute(relative)) throw new ToolError(`"${relative}" is absolute; give a path relative to the workspace`);
  const root = await realpath(workspaceDir);
  const target = path.resolve(root, relative);
  if (!isInside(root, target)) throw new ToolError(`"${relative}" is outside the workspace`);
  // The nearest existing ancestor's real path must stay inside too (a symlinked directory).
  let probe = target;
  while (!existsSync(probe) && probe !== root) probe = path.dirname(probe);
  const real = await realpath(probe);
  if (!isInside(root, real)) throw new ToolError(`"${relative}" leads outside the workspace through a symbolic link`);
  return target;
}

function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}
