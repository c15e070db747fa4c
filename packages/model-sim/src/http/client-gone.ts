import type { ServerResponse } from "node:http";

/** A signal that aborts when the connection closes before the response was finished. */
export function clientGone(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  // The client may have left while the body was being read, before anyone listened for it.
  if (res.destroyed || res.socket?.destroyed) controller.abort();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
