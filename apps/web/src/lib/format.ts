/** `agt_01hx…k3f9q2`: the prefix and the tail, enough to tell ids apart at a glance. */
export function shortId(id: string | null | undefined): string {
  if (!id) return "—";
  const i = id.indexOf("_");
  return i < 0 || id.length < 12 ? id : `${id.slice(0, i + 1)}…${id.slice(-6)}`;
}

export function formatTokens(n: number): string {
  if (n < 1_000) return String(n);
  if (n < 1_000_000) return `${(n / 1_000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "…";
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m}m ${String(Math.floor((ms % 60_000) / 1_000)).padStart(2, "0")}s`;
}

/** Compact age: 4s, 12m, 3h, 2d. */
export function formatAge(seconds: number): string {
  const s = Math.max(0, seconds);
  if (s < 60) return `${Math.floor(s)}s`;
  if (s < 3_600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3_600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

export function ageSeconds(iso: string, now: number): number {
  return (now - new Date(iso).getTime()) / 1_000;
}

/** Wall-clock time with milliseconds, for event rows. */
export function formatClock(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** One line of any value, cut to `max` characters. */
export function preview(value: unknown, max = 120): string {
  const text = typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value);
  const line = (text ?? "").replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}
