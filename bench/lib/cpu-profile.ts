import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  /** Busy (non-idle) time sampled. */
  totalMs: number;
  /** Self time by where the code lives: a package, Node's internals, GC. */
  byModule: { module: string; ms: number; share: number }[];
  /**
   * The same time, with Node's internals and native code (socket writes, crypto…) charged to
   * the nearest package that called them: what each package's work costs in all.
   */
  byPackage: { module: string; ms: number; share: number }[];
  /** Self time by function, the heaviest first. */
  byFunction: { fn: string; module: string; ms: number; share: number }[];
  /** With `stackClasses`: busy time by the first class any frame of the sample's stack belongs to ("rest" for none). */
  byStack?: Record<string, number>;
}

/** Samples whose stack holds a frame of this code, wherever the time itself went (natives, Node internals). */
export interface StackClass {
  name: string;
  matches(url: string): boolean;
}

/**
 * Reads the main thread's `.cpuprofile` in `dir` (written by `node --cpu-prof --cpu-prof-dir=dir`;
 * named CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile, thread 0 being the main one — tsx's
 * module loader runs on a thread of its own and writes a profile too).
 */
export async function summarizeMainThreadProfile(dir: string, top = 15, fromUs?: number): Promise<ProfileSummary> {
  const files = (await readdir(dir)).filter((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f)).sort();
  const file = files.at(-1);
  if (!file) throw new Error(`no main-thread .cpuprofile in ${dir}`);
  return summarizeProfile(path.join(dir, file), top, fromUs);
}

/**
 * Self time by module, package and function. With `fromUs` (a CLOCK_MONOTONIC reading in µs,
 * `process.hrtime.bigint() / 1000n` in any process on the machine, as V8 stamps samples),
 * samples taken earlier — start-up, module loading, warm-up — are left out; with `toUs`, later ones.
 */
export async function summarizeProfile(
  file: string,
  top = 15,
  fromUs?: number,
  toUs?: number,
  stackClasses: readonly StackClass[] = [],
): Promise<ProfileSummary> {
  const profile = JSON.parse(await readFile(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if ((fromUs === undefined || at >= fromUs) && (toUs === undefined || at <= toUs)) selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const packageOf = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      const m = moduleOf(frame);
      if (INTERNAL.has(m)) continue;
      // Our own packages by file: which part of Handoff the time is spent in.
      return m.startsWith("@handoff/") ? `${m} ${path.basename(frame.url)}` : m;
    }
    return moduleOf(byId.get(id)!.callFrame);
  };
  const classOf = (id: number): string => {
    const urls: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) urls.push(byId.get(at)!.callFrame.url);
    return stackClasses.find((c) => urls.some((u) => u && c.matches(u)))?.name ?? "rest";
  };
  const stacks = new Map<string, number>();
  const packages = new Map<string, number>();
  const modules = new Map<string, number>();
  const functions = new Map<string, { module: string; us: number }>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    // Waiting is not CPU: shares are of the time the thread was busy.
    if (frame.functionName === "(idle)") continue;
    const module = moduleOf(frame);
    total += us;
    if (stackClasses.length > 0) {
      const name = classOf(id);
      stacks.set(name, (stacks.get(name) ?? 0) + us);
    }
    modules.set(module, (modules.get(module) ?? 0) + us);
    const pkg = packageOf(id);
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
    const fn = `${frame.functionName || "(anonymous)"} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    const f = functions.get(fn) ?? { module, us: 0 };
    f.us += us;
    functions.set(fn, f);
  }
  const share = (us: number) => Math.round((1000 * us) / total) / 10;
  return {
    file,
    totalMs: Math.round(total / 1000),
    byModule: [...modules]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([module, us]) => ({ module, ms: Math.round(us / 1000), share: share(us) })),
    byPackage: [...packages]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([module, us]) => ({ module, ms: Math.round(us / 1000), share: share(us) })),
    byFunction: [...functions]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, top)
      .map(([fn, f]) => ({ fn, module: f.module, ms: Math.round(f.us / 1000), share: share(f.us) })),
    ...(stackClasses.length > 0 && { byStack: Object.fromEntries([...stacks].map(([name, us]) => [name, us / 1000])) }),
  };
}

const INTERNAL = new Set(["node internals", "(native)", "(program)", "(garbage collector)", "(root)"]);

function moduleOf(frame: ProfileNode["callFrame"]): string {
  if (!frame.url) return frame.functionName.startsWith("(") ? frame.functionName : "(native)";
  if (frame.url.startsWith("node:")) return "node internals";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url)?.[1];
  if (pkg) return pkg;
  const own = /\/(packages|apps)\/([^/]+)\//.exec(frame.url);
  if (own) return `@handoff/${own[2]}`;
  if (frame.url.includes("/bench/")) return "bench";
  return shortUrl(frame.url);
}

function shortUrl(url: string): string {
  return url.replace(/^file:\/\//, "").replace(/^.*\/node_modules\//, "").replace(/^.*\/(packages|apps|bench)\//, "$1/");
}
