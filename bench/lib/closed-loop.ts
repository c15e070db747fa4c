import { distribution, type Distribution } from "../pool-percentiles";

export interface LoopResult {
  concurrency: number;
  ops: number;
  seconds: number;
  /** Completed operations per second. */
  throughput: number;
  latencyMs: Distribution;
  /** Every latency, in completion order (for pooling several rounds). */
  samples: number[];
}

/**
 * Closed-loop load: `concurrency` callers, each issuing `op` again as soon as the previous
 * one returns, until `durationMs` has passed (or `maxOps` operations have started). Bounded
 * both ways; a failing operation fails the run, since a benchmark must not count errors as work.
 */
export async function closedLoop(opts: {
  concurrency: number;
  durationMs: number;
  maxOps?: number;
  op: (caller: number, i: number) => Promise<unknown>;
}): Promise<LoopResult> {
  const samples: number[] = [];
  const maxOps = opts.maxOps ?? Number.POSITIVE_INFINITY;
  const started = performance.now();
  const deadline = started + opts.durationMs;
  let issued = 0;
  let last = started;
  await Promise.all(
    Array.from({ length: opts.concurrency }, async (_, caller) => {
      while (issued < maxOps && performance.now() < deadline) {
        const i = issued++;
        const t0 = performance.now();
        await opts.op(caller, i);
        last = performance.now();
        samples.push(last - t0);
      }
    }),
  );
  return summarize(opts.concurrency, samples, (last - started) / 1000);
}

/** Pools several rounds of the same load (alternated with a baseline, to share the machine's drift). */
export function pool(rounds: readonly LoopResult[]): LoopResult {
  const samples = rounds.flatMap((r) => r.samples);
  const seconds = rounds.reduce((s, r) => s + r.seconds, 0);
  return summarize(rounds[0]?.concurrency ?? 0, samples, seconds);
}

function summarize(concurrency: number, samples: number[], seconds: number): LoopResult {
  return {
    concurrency,
    ops: samples.length,
    seconds,
    throughput: samples.length / seconds,
    latencyMs: distribution(samples),
    samples,
  };
}

/** Runs `fn` over `items`, `parallel` at a time. */
export async function inParallel<T>(items: readonly T[], parallel: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}
