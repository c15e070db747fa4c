import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { summarizeProfile, type ProfileSummary, type StackClass } from "./cpu-profile";

/** CPU-profiles this process (V8's sampling profiler, through the inspector) while `fn` runs. */
export async function profileWhile(fn: () => Promise<void>, top = 15, stackClasses: readonly StackClass[] = []): Promise<ProfileSummary> {
  const session = new Session();
  session.connect();
  const dir = await mkdtemp(path.join(os.tmpdir(), "handoff-bench-prof-"));
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 200 });
    await session.post("Profiler.start");
    const from = monotonicUs();
    let to = from;
    try {
      await fn();
    } finally {
      to = monotonicUs();
      const { profile } = await session.post("Profiler.stop");
      await writeFile(path.join(dir, "p.cpuprofile"), JSON.stringify(profile));
    }
    // Only `fn`'s window: not the profiler's own start and stop (stopping serializes the profile).
    return await summarizeProfile(path.join(dir, "p.cpuprofile"), top, from, to, stackClasses);
  } finally {
    session.disconnect();
    await rm(dir, { recursive: true, force: true });
  }
}

function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}
