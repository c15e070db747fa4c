import type { ServerResponse } from "node:http";

export interface StreamOptions {
  /** Destroy the socket after this many events instead of finishing the response. */
  resetAfterChunks?: number;
  /** Aborts when the client has gone; writing stops there. */
  signal: AbortSignal;
}

/** Writes SSE `data:` events one by one, each flushed before the next, so a reset lands mid-stream. */
export async function writeStream(res: ServerResponse, events: string[], options: StreamOptions): Promise<void> {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  res.flushHeaders();
  let written = 0;
  for (const event of events) {
    if (options.signal.aborted) return;
    if (written === options.resetAfterChunks) return reset(res);
    await new Promise<void>((resolve) => res.write(`data: ${event}\n\n`, () => resolve()));
    written++;
  }
  if (options.resetAfterChunks !== undefined) return reset(res);
  res.end();
}

/** A connection reset: the client sees the socket close with the chunked body unfinished. */
function reset(res: ServerResponse): void {
  res.socket?.resetAndDestroy();
}
