/**
 * `npm run bench`: every benchmark in turn. Each prints its tables and writes JSON to
 * bench/results/. Benchmarks are not tests: they measure, on whatever machine runs them.
 */
const benches = ["./pool-admission.ts", "./evidence-corpus.ts"];
const only = process.argv.slice(2);
for (const bench of benches) {
  if (only.length > 0 && !only.some((o) => bench.includes(o))) continue;
  console.log(`\n=== ${bench}`);
  await import(bench);
}
