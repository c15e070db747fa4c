import { parseArgs } from "node:util";
import { createToken, dbEnv, listTokens, openDatabase, revokeToken } from "@handoff/db";

const HELP = `handoff token create --role viewer|operator|admin --workspace W [--name N]
handoff token list
handoff token revoke TOKEN_ID

create prints the token once; only its hash is stored.`;

/** `handoff token …`: API tokens for the service's database (DATABASE_URL, or the embedded one). */
export async function tokenCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { role: { type: "string" }, workspace: { type: "string", default: "default" }, name: { type: "string" } },
  });
  if (!sub || !["create", "list", "revoke"].includes(sub)) {
    process.stderr.write(`${HELP}\n`);
    return 2;
  }
  const database = await openDatabase(dbEnv(), { applicationName: "handoff-token" });
  try {
    if (sub === "create") {
      if (!values.role) throw new Error("--role is required (viewer, operator or admin)");
      const created = await createToken(database.db, { role: values.role as never, workspaceId: values.workspace, name: values.name });
      process.stderr.write(`token ${created.tokenId}: ${created.role} of workspace ${created.workspaceId} — shown once, keep it safe\n`);
      process.stdout.write(`${created.token}\n`);
    } else if (sub === "list") {
      for (const t of await listTokens(database.db)) {
        process.stdout.write(`${t.id}\t${t.role}\t${t.workspaceId}\t${t.name ?? ""}\t${t.revokedAt ? "revoked" : "active"}\n`);
      }
    } else {
      const id = positionals[0];
      if (!id) throw new Error("give the token id to revoke (handoff token list)");
      if (!(await revokeToken(database.db, id))) throw new Error(`no active token ${id}`);
      process.stdout.write(`revoked ${id}\n`);
    }
    return 0;
  } finally {
    await database.close();
  }
}
