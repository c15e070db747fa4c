/**
 * Sessions whose driver failed are not claimed again by this worker for a while: `baseMs`,
 * doubling with each failure in a row, at most `maxMs`. Without it a failing session would be
 * released and re-claimed in a tight loop. Other workers may still claim it (after a poll).
 */
export class Cooldown {
  readonly #entries = new Map<string, { until: number; failures: number }>();

  constructor(
    private readonly baseMs: number,
    private readonly maxMs = 60_000,
  ) {}

  failed(sessionId: string): void {
    const failures = (this.#entries.get(sessionId)?.failures ?? 0) + 1;
    const ms = Math.min(this.maxMs, this.baseMs * 2 ** (failures - 1));
    this.#entries.set(sessionId, { until: Date.now() + ms, failures });
  }

  succeeded(sessionId: string): void {
    this.#entries.delete(sessionId);
  }

  /** Sessions to leave alone now. */
  active(): string[] {
    const now = Date.now();
    const ids: string[] = [];
    for (const [id, entry] of this.#entries) {
      // A lapsed entry keeps its failure count (the next pause doubles) until long forgotten.
      if (entry.until > now) ids.push(id);
      else if (now - entry.until > 10 * this.maxMs) this.#entries.delete(id);
    }
    return ids;
  }
}
