import { newId, type Db } from "@handoff/db";
import type { Webhook } from "./hook-config";
import { signature } from "./sign";

export interface DelivererOptions {
  webhooks: Webhook[];
  /** How often to look for due deliveries when no notification arrives. */
  pollMs?: number;
  maxAttempts?: number;
  /** First retry delay; doubles per attempt, capped at 5 minutes. */
  baseBackoffMs?: number;
  timeoutMs?: number;
  log?: (msg: string, fields: Record<string, unknown>) => void;
}

export interface HookDeliverer {
  /** Delivers whatever is due now (also what the background loop does). */
  deliverDue(): Promise<number>;
  stop(): Promise<void>;
}

interface Due {
  id: string;
  url: string;
  payload: unknown;
  attempts: number;
}

/**
 * Sends the webhook outbox. Due rows are taken with FOR UPDATE SKIP LOCKED (several workers
 * may run a deliverer) and pushed into the future while in flight; each attempt is recorded;
 * a failure is retried with exponential backoff until `maxAttempts`, then marked failed.
 */
export function startHookDeliverer(db: Db, options: DelivererOptions): HookDeliverer {
  const maxAttempts = options.maxAttempts ?? 8;
  const base = options.baseBackoffMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let stopped = false;
  let wake: () => void = () => {};

  const deliverDue = async (): Promise<number> => {
    const due = await db.sql<Due[]>`
      UPDATE hook_deliveries SET next_attempt_at = now() + make_interval(secs => ${(timeoutMs * 2) / 1000}::float8)
      WHERE id IN (
        SELECT id FROM hook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()
        ORDER BY next_attempt_at LIMIT 20 FOR UPDATE SKIP LOCKED)
      RETURNING id, url, payload, attempts`;
    await Promise.all(due.map((d) => attempt(d)));
    return due.length;
  };

  const attempt = async (d: Due): Promise<void> => {
    const hook = options.webhooks.find((h) => h.url === d.url);
    const body = JSON.stringify(d.payload);
    const n = d.attempts + 1;
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    if (!hook) {
      error = "this webhook is no longer configured";
    } else {
      try {
        const res = await fetch(d.url, {
          method: "POST",
          headers: { "content-type": "application/json", "x-handoff-signature": signature(hook.secret, body) },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        statusCode = res.status;
        await res.body?.cancel();
        if (!res.ok) error = `HTTP ${res.status}`;
      } catch (e) {
        error = (e as Error).message;
      }
    }
    const durationMs = Math.round(performance.now() - started);
    const delivered = error === null;
    const giveUp = !delivered && (!hook || n >= maxAttempts);
    const backoffMs = Math.min(300_000, base * 2 ** (n - 1));
    await db.sql.begin(async (tx) => {
      await tx`
        INSERT INTO hook_attempts (id, delivery_id, attempt, status_code, error, duration_ms)
        VALUES (${newId("hka")}, ${d.id}, ${n}, ${statusCode}, ${error}, ${durationMs})`;
      await tx`
        UPDATE hook_deliveries SET attempts = ${n}, last_status_code = ${statusCode}, last_error = ${error},
          status = ${delivered ? "delivered" : giveUp ? "failed" : "pending"},
          delivered_at = ${delivered ? new Date() : null},
          next_attempt_at = now() + make_interval(secs => ${backoffMs / 1000}::float8)
        WHERE id = ${d.id}`;
    });
    if (!delivered) options.log?.("hook delivery failed", { deliveryId: d.id, url: d.url, attempt: n, error, gaveUp: giveUp });
  };

  const loop = (async () => {
    const listener = await db.sql.listen("handoff_hooks", () => wake()).catch(() => null);
    while (!stopped) {
      await deliverDue().catch((e: Error) => options.log?.("hook deliverer error", { error: e.message }));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.pollMs ?? 500);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    await listener?.unlisten().catch(() => {});
  })();

  return {
    deliverDue,
    async stop() {
      stopped = true;
      wake();
      await loop;
    },
  };
}
