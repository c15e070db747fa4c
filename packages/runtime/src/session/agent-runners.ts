import type { DriveContext } from "@handoff/worker/driver";
import { runTurn } from "./run-turn";
import type { Runtime } from "./turn-context";

interface Runner {
  promise: Promise<void>;
  abort: AbortController;
}

/**
 * The agents one drive is running, at most one runner each: a runner takes turn after turn
 * for its agent until it has nothing to do. Parents and subagents run side by side; a
 * foreground `task` simply waits for its child's runner.
 */
export class AgentRunners {
  private readonly runners = new Map<string, Runner>();

  constructor(
    private readonly rt: Runtime,
    private readonly ctx: DriveContext,
  ) {}

  /** The agent's runner, started if it is not running. */
  ensure(agentId: string): Promise<void> {
    const existing = this.runners.get(agentId);
    if (existing) return existing.promise;
    const abort = new AbortController();
    const ctx: DriveContext = { ...this.ctx, signal: AbortSignal.any([this.ctx.signal, abort.signal]) };
    const promise = (async () => {
      while ((await runTurn(this.rt, ctx, agentId, this)) === "ended") {
        if (ctx.signal.aborted) return;
      }
    })()
      .catch((e: unknown) => {
        // Stopped on purpose (abandoned): its end was already recorded by whoever stopped it.
        if (abort.signal.aborted && !this.ctx.signal.aborted) return;
        throw e;
      })
      .finally(() => this.runners.delete(agentId));
    this.runners.set(agentId, { promise, abort });
    return promise;
  }

  has(agentId: string): boolean {
    return this.runners.has(agentId);
  }

  get size(): number {
    return this.runners.size;
  }

  /** Settles when any runner settles; rejects with the first runner's failure. */
  any(): Promise<void> {
    return Promise.race([...this.runners.values()].map((r) => r.promise));
  }

  /** Stops these agents' runners where they are (orchestrate-and-abandon). */
  abort(agentIds: readonly string[], reason: string): void {
    for (const id of agentIds) this.runners.get(id)?.abort.abort(new Error(reason));
  }

  /** Stops every runner (a whole-session cancel). */
  abortAll(reason: string): void {
    this.abort([...this.runners.keys()], reason);
  }

  /** Waits for every runner to finish, failures included. */
  async settle(): Promise<void> {
    while (this.runners.size > 0) await Promise.allSettled([...this.runners.values()].map((r) => r.promise));
  }
}
