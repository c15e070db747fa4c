import { transientError, type Transient } from "./transient-error";

export interface RetryPolicy {
  maxRetries: number;
  /** First backoff when the server gives no Retry-After; doubles each time, capped at 30 s. */
  baseDelayMs?: number;
}

/**
 * Runs a model request, again on transient failures, waiting what Retry-After asks or an
 * exponential backoff. A retry is the same step, not a new one: the caller counts once.
 */
export async function withRetry<T>(
  fn: () => Promise<T>,
  policy: RetryPolicy,
  signal: AbortSignal,
  onRetry: (attempt: number, why: Transient, delayMs: number) => void | Promise<void>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (signal.aborted) throw e;
      const why = transientError(e);
      if (!why || attempt >= policy.maxRetries) throw e;
      const backoff = Math.min(30_000, (policy.baseDelayMs ?? 500) * 2 ** attempt) * (0.8 + Math.random() * 0.4);
      const delayMs = why.retryAfterSeconds !== undefined ? why.retryAfterSeconds * 1000 : Math.round(backoff);
      await onRetry(attempt + 1, why, delayMs);
      await sleep(delayMs, signal);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
