import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { onTestFinished } from "vitest";

/**
 * A named pipe in a session's workspace: a tool that reads it (`grep`, `read_file`) blocks in
 * `open()` until the test feeds it. That is a tool call in flight for exactly as long as the
 * test wants, with no timing guesswork, and killing the worker there leaves a `running` call.
 */
export function makeFifo(file: string): { feed(text: string): Promise<void> } {
  execFileSync("mkfifo", [file]);
  const feeding: Promise<void>[] = [];
  // A feed still waiting for a reader would hold this process open: give it one, and let it fail.
  onTestFinished(async () => {
    try {
      closeSync(openSync(file, constants.O_RDWR | constants.O_NONBLOCK));
    } catch {}
    await Promise.allSettled(feeding);
  });
  return {
    /** Resolves once a reader (a worker's tool) has opened the pipe and `text` is written. */
    feed(text) {
      const p = writeFile(file, text);
      feeding.push(p);
      return p;
    },
  };
}
