/**
 * C4 over the labelled corpus of scripted subagent runs: recall on INCOMPLETE, false
 * interventions on COMPLETE, and the UNVERIFIABLE count, per category and in total.
 * `npx tsx bench/evidence-corpus.ts`; writes bench/results/evidence-corpus.json.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { dbEnv } from "@handoff/db";
import { createTestDatabase } from "@handoff/db/testing";
import { startTestServer } from "@handoff/db/testing/server";
import { createModelSim } from "@handoff/model-sim";
import { createRuntime, runtimeEnv } from "@handoff/runtime";
import { evidenceCorpus } from "../packages/runtime/test/corpus/evidence-corpus";
import { corpusProfiles, reportCorpus, runCorpus } from "../packages/runtime/test/corpus/run-corpus";

const server = await startTestServer(dbEnv().DATABASE_URL);
const database = await createTestDatabase(server.adminUrl, server.template);
const sim = await createModelSim({ scenario: { agents: {} } });
const dir = await mkdtemp(path.join(os.tmpdir(), "handoff-corpus-"));
await mkdir(path.join(dir, "agents"));
for (const [name, text] of Object.entries(corpusProfiles)) await writeFile(path.join(dir, "agents", `${name}.md`), text);
const runtime = await createRuntime(
  runtimeEnv({ HANDOFF_MODEL: "openai-compatible:sim", HANDOFF_BASE_URL: sim.url, HANDOFF_DATA_DIR: dir, HANDOFF_AGENTS_DIR: path.join(dir, "agents") }),
  { retryBaseDelayMs: 20 },
);
let outcomes;
try {
  outcomes = await runCorpus(database.db, sim, runtime, evidenceCorpus);
} finally {
  await runtime.close();
  await sim.close();
  await database.drop();
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}

const pad = (v: unknown, n: number) => String(v).padEnd(n);
const rows = [...new Set(outcomes.map((o) => o.case.category))].map((category) => {
  const of = outcomes.filter((o) => o.case.category === category);
  return {
    category,
    runs: of.length,
    label: of[0]!.case.label,
    complete: of.filter((o) => o.verdict === "COMPLETE").length,
    incomplete: of.filter((o) => o.verdict === "INCOMPLETE").length,
    unverifiable: of.filter((o) => o.verdict === "UNVERIFIABLE").length,
    matching: of.filter((o) => o.verdict === o.case.label && o.rule === o.case.rule).length,
  };
});
console.log("\nverdicts by category (labelled corpus of scripted subagent runs)");
console.log(`${pad("category", 30)}${pad("runs", 6)}${pad("label", 14)}${pad("COMPLETE", 10)}${pad("INCOMPLETE", 12)}${pad("UNVERIFIABLE", 14)}matching`);
for (const r of rows) {
  console.log(`${pad(r.category, 30)}${pad(r.runs, 6)}${pad(r.label, 14)}${pad(r.complete, 10)}${pad(r.incomplete, 12)}${pad(r.unverifiable, 14)}${r.matching}/${r.runs}`);
}
const report = reportCorpus(outcomes);
const pct = (a: number, b: number) => (b === 0 ? "n/a" : `${((100 * a) / b).toFixed(1)}% (${a}/${b})`);
console.log("\nsummary");
console.log(`${pad("runs", 34)}${report.runs}`);
console.log(`${pad("recall on INCOMPLETE", 34)}${pct(report.incompleteCaught, report.incompleteLabelled)}`);
console.log(`${pad("false interventions on COMPLETE", 34)}${pct(report.falseInterventions, report.completeLabelled)}`);
console.log(`${pad("UNVERIFIABLE", 34)}${report.unverifiable}`);
console.log(`${pad("verdicts not matching their label", 34)}${report.mismatches.length}`);

const out = fileURLToPath(new URL("./results/evidence-corpus.json", import.meta.url));
await mkdir(path.dirname(out), { recursive: true });
await writeFile(
  out,
  `${JSON.stringify({ at: new Date().toISOString(), rows, summary: { ...report, mismatches: report.mismatches.map((m) => m.case.name) } }, null, 2)}\n`,
);
console.log(`\nwrote ${out}`);
if (report.mismatches.length > 0) process.exitCode = 1;
