import type { APIRequestContext } from "@playwright/test";

/**
 * Plain tRPC over HTTP, as any client sends it (no batching, no transformer), through the
 * page's request context so it carries the dashboard's cookie.
 */
export async function mutate<T = any>(request: APIRequestContext, path: string, input: unknown): Promise<T> {
  const res = await request.post(`/api/trpc/${path}`, { data: input });
  const body = await res.json();
  if (!res.ok()) throw new Error(`${path} failed (${res.status()}): ${JSON.stringify(body)}`);
  return body.result.data as T;
}

export async function query<T = any>(request: APIRequestContext, path: string, input: unknown): Promise<T> {
  const res = await request.get(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`);
  const body = await res.json();
  if (!res.ok()) throw new Error(`${path} failed (${res.status()}): ${JSON.stringify(body)}`);
  return body.result.data as T;
}
