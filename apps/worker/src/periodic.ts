export interface Periodic {
  /** Stops the schedule and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `fn` every `ms`, never two at once: the next run is scheduled when the previous one
 * ends, so a slow database delays the schedule instead of piling queries up.
 */
export function every(ms: number, fn: () => Promise<void>): Periodic {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = fn().finally(schedule);
    }, ms);
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
