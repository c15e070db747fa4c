export interface Distribution {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles of `values` (milliseconds), rounded to 0.1. */
export function distribution(values: readonly number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => {
    if (sorted.length === 0) return NaN;
    const v = sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
    return Math.round(v * 10) / 10;
  };
  return { n: sorted.length, p50: at(50), p90: at(90), p99: at(99), max: at(100) };
}
