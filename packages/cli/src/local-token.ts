import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createToken, verifyToken, type Db } from "@handoff/db";

/**
 * Local mode (no DATABASE_URL): an admin token for the `default` workspace, kept in the
 * data directory (mode 0600) so restarts reuse it, and printed as a sign-in link.
 */
export async function localAdminToken(db: Db, dataDir: string): Promise<string> {
  const file = path.join(path.resolve(dataDir), "local-admin-token");
  if (existsSync(file)) {
    const saved = (await readFile(file, "utf8")).trim();
    if (await verifyToken(db, saved)) return saved;
  }
  const { token } = await createToken(db, { role: "admin", workspaceId: "default", name: "local admin (npm start)" });
  await writeFile(file, `${token}\n`, { mode: 0o600 });
  return token;
}
