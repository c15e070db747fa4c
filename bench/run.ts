/**
 * `npm run bench`: every benchmark in turn; `npm run bench -- admission fan-out` runs those
 * by name. Each prints its tables and writes JSON to bench/results/; the README's
 * "## Benchmarks" section is then regenerated from those files. Benchmarks are not tests:
 * they measure, on whatever machine runs them, against a baseline measured in the same run.
 */
import { updateReadme } from "./lib/readme-table";

const benches = [
  "admission",
  "runtime-overhead",
  "fan-out",
  "recovery",
  "scale",
  "peer-queue",
  "pool-admission",
  "evidence-corpus",
];
const only = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const unknown = only.filter((o) => !benches.includes(o));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(", ")}; known: ${benches.join(", ")}`);
  process.exit(2);
}
const failed: string[] = [];
for (const bench of benches) {
  if (only.length > 0 && !only.includes(bench)) continue;
  console.log(`\n=== ${bench}`);
  const started = performance.now();
  try {
    await import(`./${bench}.ts`);
  } catch (e) {
    // One broken benchmark does not hide the others' figures.
    console.error(`${bench} failed: ${(e as Error).stack ?? e}`);
    failed.push(bench);
  }
  console.log(`=== ${bench}: ${Math.round((performance.now() - started) / 1000)} s`);
}
await updateReadme();
if (failed.length > 0) {
  console.error(`failed: ${failed.join(", ")}`);
  process.exitCode = 1;
}
