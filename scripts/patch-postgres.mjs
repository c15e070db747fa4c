// Patches postgres-js 3.4.9 after install (run by the root `postinstall`).
//
// When PostgreSQL restarts, postgres-js can write to a connection whose socket is already
// gone and throw `TypeError: Cannot read properties of null (reading 'write')` from a timer:
// an uncatchable crash of whatever process holds the pool (porsager/postgres#1154, #1208;
// no release fixes it). The patch fails the connection's queries with CONNECTION_CLOSED
// instead, which callers already handle. See docs/decisions/0009-postgres-js-patch.md.
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
// Its package.json is not exported: find the package root from its CommonJS entry (cjs/src/index.js).
const root = path.resolve(path.dirname(require.resolve("postgres")), "../..");
const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const ORIGINAL = "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)";
const PATCHED =
  "  function nextWrite(fn) {\n" +
  "    if (!socket) { chunk = nextWriteTimer = null; error(Errors.connection('CONNECTION_CLOSED', options)); return false } // handoff patch: porsager/postgres#1154\n" +
  "    const x = socket.write(chunk, fn)";
for (const file of ["src/connection.js", "cjs/src/connection.js"]) {
  const full = path.join(root, file);
  if (!existsSync(full)) continue;
  const text = readFileSync(full, "utf8");
  if (text.includes("handoff patch: porsager/postgres#1154")) continue;
  if (!text.includes(ORIGINAL)) {
    console.error(`patch-postgres: ${file} of postgres ${version} does not have the expected nextWrite; review scripts/patch-postgres.mjs`);
    process.exit(1);
  }
  writeFileSync(full, text.replace(ORIGINAL, PATCHED));
}
