import { openDatabase } from "@handoff/db";
import { cliEnv } from "../env";

export async function migrateCommand(): Promise<number> {
  const database = await openDatabase(cliEnv());
  process.stdout.write(`migrations applied (${database.kind} database)\n`);
  await database.close();
  return 0;
}
