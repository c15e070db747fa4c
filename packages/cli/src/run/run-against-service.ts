import type { HeadlessResult } from "@handoff/runtime";
import { Handoff } from "@handoff/sdk";
import { EventSource } from "eventsource";
import type { RootAgent } from "../root-agent";
import { headlessResultFromApi, readSessionRecord } from "./headless-result-from-api";
import { progressLine } from "./progress-line";

/** How long to wait for the service's worker to let the finished session go. */
const RELEASE_WAIT_MS = 5_000;

/**
 * `handoff run --url`: one headless session on a running service, through the SDK. `run()`
 * owns the interval to the session's end; the result is then read from the API.
 */
export async function runAgainstService(options: {
  url: string;
  token?: string;
  prompt: string;
  root: RootAgent;
  /** Text mode: write each event's progress line to stderr as it streams. */
  progress: boolean;
}): Promise<HeadlessResult> {
  const started = performance.now();
  const handoff = new Handoff({ url: options.url, token: options.token, EventSource });
  const { sessionId } = await handoff.trpc.session.create.mutate({ mode: "headless", title: options.prompt.slice(0, 120), ...options.root });
  const progress = options.progress ? followProgress(handoff, sessionId) : null;
  try {
    const run = await handoff.run(options.prompt, { sessionId });
    await progress?.until(run.events.at(-1)?.seq ?? 0);
  } finally {
    progress?.stop();
  }
  await released(handoff, sessionId);
  return headlessResultFromApi(await readSessionRecord(handoff, sessionId), performance.now() - started);
}

/**
 * The session has ended once its root did, but the worker may still be settling subagents it
 * abandoned; in process, the result is read after that. Wait (a little) for the lease to go.
 */
async function released(handoff: Handoff, sessionId: string): Promise<void> {
  const deadline = Date.now() + RELEASE_WAIT_MS;
  while (Date.now() < deadline) {
    const { lease } = await handoff.trpc.session.get.query({ sessionId });
    if (!lease.owner || (lease.expiresAt && Date.parse(lease.expiresAt) < Date.now())) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Streams the session's progress lines to stderr, up to a given event. */
function followProgress(handoff: Handoff, sessionId: string): { until(seq: number): Promise<void>; stop(): void } {
  const abort = new AbortController();
  let seen = 0;
  let reached = (): void => {};
  const done = (async () => {
    for await (const e of handoff.events(sessionId, { signal: abort.signal })) {
      seen = e.seq;
      const line = progressLine(e);
      if (line) process.stderr.write(`${line}\n`);
      reached();
    }
  })().catch(() => {});
  return {
    async until(seq) {
      const caughtUp = new Promise<void>((resolve) => {
        reached = () => seen >= seq && resolve();
        reached();
      });
      await Promise.race([caughtUp, done]);
    },
    stop: () => abort.abort(),
  };
}
