import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createSession, enqueue, type Db } from "@handoff/db";
import { waitFor } from "@handoff/db/testing";
import type { Spawned } from "./processes";
import type { Stage } from "./stage";

export interface HeadlessRun {
  sessionId: string;
  rootAgentId: string;
  workspace: string;
  /** Sends the one prompt; resolves with its message id once it is durable. */
  prompt(text?: string): Promise<string>;
  /** How many times `appendStep(label)` ran in this session's workspace: a side effect per execution. */
  appended(label: string): Promise<number>;
}

/** The counter file `appendStep` edits: each execution of the call adds one line. */
export const LOG_FILE = "log.txt";
const END = "<end>";

/** An `edit_file` call that appends `label` to the workspace's log: run twice, it shows twice. */
export function appendStep(label: string) {
  return { name: "edit_file", args: { path: LOG_FILE, oldString: END, newString: `${label}\n${END}` } };
}

/** A headless session of `profile`, its workspace holding the counter file, not yet prompted. */
export async function headlessRun(db: Db, stage: Stage, profile = "general"): Promise<HeadlessRun> {
  const { sessionId, rootAgentId } = await createSession(db, { mode: "headless", profile });
  const workspace = await stage.workspace(sessionId);
  await writeFile(path.join(workspace, LOG_FILE), `${END}\n`);
  return {
    sessionId,
    rootAgentId,
    workspace,
    async prompt(text = "go") {
      const { messageId } = await enqueue(db, { sessionId, kind: "prompt", payload: { text } }, { maxPayloadBytes: 1 << 20 });
      return messageId;
    },
    async appended(label) {
      const text = await readFile(path.join(workspace, LOG_FILE), "utf8");
      return text.split("\n").filter((l) => l === label).length;
    },
  };
}

/**
 * Waits until every session is at rest (`ended`, `cancelled` or `idle` with nothing queued or
 * running), failing early when one of the workers dies on its own.
 */
export async function waitForRest(db: Db, sessionIds: readonly string[], workers: Spawned[], timeoutMs = 60_000): Promise<void> {
  await waitFor(
    `${sessionIds.length} session(s) to come to rest`,
    async () => {
      for (const w of workers) {
        if (!w.alive()) throw new Error(`${w.name} exited on its own (${await w.exited}):\n${w.output().slice(-5000)}`);
      }
      const [row] = await db.sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM sessions s
        WHERE s.id = ANY(${sessionIds as string[]}::text[])
          AND (s.status IN ('ended', 'cancelled')
            OR (s.status = 'idle'
              AND NOT EXISTS (SELECT 1 FROM inbox_messages m WHERE m.session_id = s.id AND m.state = 'queued')
              AND NOT EXISTS (SELECT 1 FROM turns t WHERE t.session_id = s.id AND t.status = 'running')))`;
      return row!.n === sessionIds.length;
    },
    { timeoutMs, intervalMs: 100 },
  );
}

/** `p`, or a failure naming `what` (and `detail()`) after `ms`. */
export async function within<T>(p: Promise<T>, ms: number, what: string, detail: () => string = () => ""): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}${detail()}`)), ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}
