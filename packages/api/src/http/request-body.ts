import type { IncomingMessage } from "node:http";
import { HandoffError } from "@handoff/db";
import { TRPCError } from "@trpc/server";
import { refusedCall, type CallAnswer } from "./mutation-calls";

/**
 * The largest request body the API reads: a batch of a few payloads at the limit and their
 * envelope. Anything larger is refused before it is held in memory.
 */
export function maxRequestBytes(maxPayloadBytes: number): number {
  return 4 * maxPayloadBytes + 64 * 1024;
}

/**
 * The answer to a POST whose body is over `limit` bytes: 413 PAYLOAD_TOO_LARGE, worded like
 * the API's other payload refusals, once per call of a batch (see refusedCall).
 */
export function bodyTooLargeAnswer(url: URL, endpoint: string, limit: number): CallAnswer {
  return refusedCall({ path: url.pathname.slice(endpoint.length + 1), search: url.searchParams }, bodyTooLarge(limit));
}

function bodyTooLarge(limit: number): TRPCError {
  const cause = new HandoffError(
    "PAYLOAD_TOO_LARGE",
    `request body is over ${limit} bytes, the limit (4 × HANDOFF_MAX_PAYLOAD_BYTES + 64 KiB); send a smaller payload or fewer calls in one batch`,
    { limit },
  );
  return new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: cause.message, cause });
}

/** A web Request's body as text, or null when it is over `limit` bytes (then read no further). */
export async function readRequestText(req: Request, limit: number): Promise<string | null> {
  if (Number(req.headers.get("content-length")) > limit) return null;
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A Node request's body, or null when it is over `limit` bytes (what follows is discarded unread). */
export function readNodeBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  if (Number(req.headers["content-length"]) > limit) {
    req.resume();
    return Promise.resolve(null);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.once("end", () => resolve(size > limit ? null : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once("error", reject);
  });
}
