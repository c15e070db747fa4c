/**
 * A level-triggered wake-up for the claim loop: any number of `wake()` calls while the loop
 * is busy collapse into one more round, so a burst of notifications costs one claim query.
 */
export class Wakeup {
  #pending = false;
  #resolve: (() => void) | null = null;

  wake(): void {
    this.#pending = true;
    this.#resolve?.();
  }

  /** Resolves at the next `wake()` (or at once if one came meanwhile), or after `ms`. */
  async wait(ms: number): Promise<void> {
    if (!this.#pending) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        this.#resolve = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#resolve = null;
    }
    this.#pending = false;
  }
}
