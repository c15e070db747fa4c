import { db } from "~/db";
import { env } from "~/env";
import { collectMetrics } from "~/metrics/collect-metrics";

export const dynamic = "force-dynamic";

/** Prometheus scrape endpoint for the worker pool: see `collectMetrics`. */
export async function GET() {
  try {
    const { text, contentType } = await collectMetrics(db(), { leaseTtlMs: env().HANDOFF_LEASE_TTL_MS });
    return new Response(text, { headers: { "content-type": contentType, "cache-control": "no-store" } });
  } catch (e) {
    return new Response(`# metrics unavailable: ${(e as Error).message}\n`, { status: 503 });
  }
}
