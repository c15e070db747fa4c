/**
 * Worker-pool benchmark: enqueue-to-admission latency under load, and recovery time after a
 * worker is SIGKILLed. `npx tsx bench/pool-admission.ts` (DATABASE_URL, or embedded Postgres).
 * Prints a table and writes bench/results/pool-admission.json.
 */
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { dbEnv } from "@handoff/db";
import { createTestDatabase } from "@handoff/db/testing";
import { startTestServer } from "@handoff/db/testing/server";
import { runLoad, type LoadResult } from "./pool-load";
import { runRecovery, type RecoveryResult } from "./pool-recovery";

const resultFile = fileURLToPath(new URL("./results/pool-admission.json", import.meta.url));
const WORKERS = 3;
const FLAGS = { concurrency: 8, leaseTtlMs: 10_000, pollMs: 2_000, stepMs: 20, heartbeatMs: 2_000 };

const server = await startTestServer(dbEnv().DATABASE_URL);
const loads: LoadResult[] = [];
const recoveries: RecoveryResult[] = [];
try {
  for (const ratePerSecond of [25, 50, 100, 200]) {
    const database = await createTestDatabase(server.adminUrl, server.template);
    try {
      loads.push(await runLoad(database.db, database.url, { ratePerSecond, seconds: 8, workers: WORKERS, sessions: 200, flags: FLAGS }));
    } finally {
      await database.drop();
    }
  }
  for (const { leaseTtlMs, pollMs } of [
    { leaseTtlMs: 10_000, pollMs: 2_000 },
    { leaseTtlMs: 2_000, pollMs: 500 },
  ]) {
    const database = await createTestDatabase(server.adminUrl, server.template);
    try {
      recoveries.push(await runRecovery(database.db, database.url, { sessions: 20, leaseTtlMs, pollMs }));
    } finally {
      await database.drop();
    }
  }
} finally {
  await server.stop();
}

const pad = (v: unknown, n: number) => String(v).padStart(n);
console.log(`\nenqueue → admission latency (ms), ${WORKERS} workers × concurrency ${FLAGS.concurrency}, step ${FLAGS.stepMs} ms, 200 sessions`);
console.log(`${pad("offered/s", 9)} ${pad("admitted/s", 10)} ${pad("msgs", 6)} ${pad("p50", 8)} ${pad("p90", 8)} ${pad("p99", 8)} ${pad("max", 8)}`);
for (const l of loads) {
  const d = l.latencyMs;
  console.log(
    `${pad(l.ratePerSecond, 9)} ${pad(l.admittedPerSecond, 10)} ${pad(l.enqueued, 6)} ${pad(d.p50, 8)} ${pad(d.p90, 8)} ${pad(d.p99, 8)} ${pad(d.max, 8)}`,
  );
}
console.log(`\nrecovery after SIGKILL of a worker holding 20 sessions mid-turn (ms)`);
console.log(`${pad("TTL", 7)} ${pad("poll", 6)} ${pad("taken", 6)} ${pad("first resume", 13)} ${pad("all finished", 13)} ${pad("violations", 11)}`);
for (const r of recoveries) {
  console.log(
    `${pad(r.leaseTtlMs, 7)} ${pad(r.pollMs, 6)} ${pad(r.takenOver, 6)} ${pad(r.firstResumeMs, 13)} ${pad(r.allFinishedMs, 13)} ${pad(r.violations.length, 11)}`,
  );
}

await mkdir(fileURLToPath(new URL("./results/", import.meta.url)), { recursive: true });
await writeFile(
  resultFile,
  `${JSON.stringify(
    {
      at: new Date().toISOString(),
      machine: { cpus: os.cpus().length, node: process.version, database: dbEnv().DATABASE_URL ? "DATABASE_URL" : "embedded" },
      load: loads,
      recovery: recoveries,
    },
    null,
    2,
  )}\n`,
);
console.log(`\nwrote ${resultFile}`);
if (recoveries.some((r) => r.violations.length > 0)) process.exitCode = 1;
