import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Machine } from "./machine";

export type Cell = string | number | null;

/** One printed table; the README shows the same rows (bench/lib/readme-table.ts). */
export interface Table {
  title: string;
  columns: string[];
  rows: Cell[][];
  /** Lines printed under the table: how it was measured, what a column means. */
  notes?: string[];
}

/** A stated target and whether this run met it. */
export interface Target {
  name: string;
  measured: string;
  target: string;
  met: boolean;
}

/** What every benchmark writes to bench/results/<bench>.json. */
export interface BenchResult {
  bench: string;
  title: string;
  at: string;
  seconds: number;
  machine: Machine;
  tables: Table[];
  targets: Target[];
  /** The raw figures behind the tables. */
  data: unknown;
}

export const resultsDir = fileURLToPath(new URL("../results/", import.meta.url));

/** Rounds to `digits` decimals; NaN and infinities print as "n/a". */
export function num(value: number, digits = 1): Cell {
  if (!Number.isFinite(value)) return "n/a";
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** `a / b` as "0.42×". */
export function ratio(a: number, b: number, digits = 2): string {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return "n/a";
  return `${(a / b).toFixed(digits)}×`;
}

export function printTable(table: Table): void {
  const cells = [table.columns, ...table.rows.map((r) => r.map((c) => (c === null ? "" : String(c))))];
  const widths = table.columns.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(`\n${table.title}`);
  console.log(line(cells[0]!));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of cells.slice(1)) console.log(line(r));
  for (const n of table.notes ?? []) console.log(`  ${n}`);
}

export function printTargets(targets: readonly Target[]): void {
  if (targets.length === 0) return;
  console.log("\ntargets");
  for (const t of targets) console.log(`  ${t.met ? "PASS" : "MISS"}  ${t.name}: ${t.measured} (target ${t.target})`);
}

/** Prints the tables and targets, and writes the result file. Returns its path. */
export async function report(result: Omit<BenchResult, "at">): Promise<string> {
  for (const t of result.tables) printTable(t);
  printTargets(result.targets);
  await mkdir(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${result.bench}.json`);
  await writeFile(file, `${JSON.stringify({ at: new Date().toISOString(), ...result }, null, 2)}\n`);
  console.log(`\nwrote ${file}`);
  return file;
}
