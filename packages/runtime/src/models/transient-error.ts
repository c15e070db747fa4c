import { APICallError } from "ai";

export interface Transient {
  /** Seconds the server asked us to wait (Retry-After), when it said. */
  retryAfterSeconds?: number;
  reason: string;
}

/** 429, 5xx, connection resets and timeouts are worth another try; anything else is the answer. */
export function transientError(e: unknown): Transient | null {
  if (APICallError.isInstance(e)) {
    const status = e.statusCode;
    if (status === 429 || (status !== undefined && status >= 500)) {
      const header = e.responseHeaders?.["retry-after"];
      const seconds = header === undefined ? undefined : Number(header);
      return { reason: `HTTP ${status}`, retryAfterSeconds: Number.isFinite(seconds) ? seconds : undefined };
    }
    if (status === undefined && e.isRetryable) return { reason: e.message };
    // Fix (fault tests): the response began (2xx) and then its stream broke off — the AI SDK
    // wraps a connection reset mid-stream as "Failed to process successful response". What
    // decides is the cause: a reset or a cut socket is retried like any other.
    if (status !== undefined && status < 300 && e.cause !== undefined) return transientError(e.cause);
    return null;
  }
  const err = e as { name?: string; code?: string; message?: string; cause?: { code?: string } } | null;
  const code = err?.code ?? err?.cause?.code;
  if (err?.name === "TimeoutError" || err?.name === "ModelTimeoutError") return { reason: "timed out" };
  if (code && ["ECONNRESET", "ECONNREFUSED", "EPIPE", "UND_ERR_SOCKET", "ETIMEDOUT"].includes(code)) return { reason: code };
  if (err?.message && /terminated|socket hang up|other side closed|fetch failed/i.test(err.message)) return { reason: err.message };
  return null;
}
