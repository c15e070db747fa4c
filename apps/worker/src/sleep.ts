/** Waits `ms`, or less when one of the signals aborts; resolves `false` then. */
export function sleep(ms: number, signals: readonly AbortSignal[] = []): Promise<boolean> {
  return new Promise((resolve) => {
    if (signals.some((s) => s.aborted)) return resolve(false);
    const done = (completed: boolean) => {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener("abort", onAbort);
      resolve(completed);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    for (const s of signals) s.addEventListener("abort", onAbort, { once: true });
  });
}
