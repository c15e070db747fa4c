import { parseArgs } from "node:util";
import { createSession, enqueue, dbEnv, openDatabase, readEvents, type Db, type StoredEvent } from "@handoff/db";
import { createRuntime, ownSession, readHeadlessResult, runtimeEnv, startHookDeliverer, type HeadlessResult } from "@handoff/runtime";

const HELP = `handoff run "<prompt>" [--profile NAME] [--model PROVIDER:MODEL] [--base-url URL]
            [--max-steps N] [--output-format text|json] [--url SERVICE_URL]

Runs one headless session to its result. Text mode writes the reply to stdout and progress
to stderr; json mode prints one result object. Exit status 0 only when the root replied.`;

/** `handoff run`: one headless session, one result (DESIGN.md "Interfaces others script against"). */
export async function runCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      profile: { type: "string", default: "general" },
      model: { type: "string" },
      "base-url": { type: "string" },
      "max-steps": { type: "string" },
      "output-format": { type: "string", default: "text" },
      url: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const prompt = positionals.join(" ").trim();
  if (!prompt) throw new Error(`a prompt is required\n\n${HELP}`);
  const format = values["output-format"];
  if (format !== "text" && format !== "json") throw new Error(`--output-format must be text or json, not "${format}"`);
  const maxSteps = values["max-steps"] === undefined ? undefined : Number(values["max-steps"]);
  if (maxSteps !== undefined && (!Number.isInteger(maxSteps) || maxSteps < 1)) {
    throw new Error(`--max-steps must be a whole number of at least 1, not "${values["max-steps"]}"`);
  }
  if (values.url) throw new Error("--url (a running service) is not available yet; run without it to run in process");

  const started = performance.now();
  const env = runtimeEnv();
  const runtime = await createRuntime(env);
  runtime.runtime.profiles.get(values.profile); // an unknown profile fails here, naming the known ones
  const database = await openDatabase(dbEnv(), { applicationName: "handoff-run" });
  try {
    const { db } = database;
    const { sessionId } = await createSession(db, {
      mode: "headless",
      profile: values.profile,
      title: prompt.slice(0, 120),
      model: values.model ?? null,
      config: { ...(values["base-url"] ? { baseUrl: values["base-url"] } : {}), ...(maxSteps ? { maxSteps } : {}) },
    });
    // Own the session before the prompt is queued, so a service worker woken by it finds it held.
    const owner = await ownSession(db, sessionId, runtime.driver);
    if (!owner) throw new Error(`session ${sessionId} was claimed by another worker`);
    const progress = format === "text" ? followProgress(db, sessionId) : null;
    const hooks = runtime.runtime.webhooks.length > 0 ? startHookDeliverer(db, { webhooks: runtime.runtime.webhooks }) : null;
    try {
      await enqueue(db, { sessionId, kind: "prompt", payload: { text: prompt } }, { maxPayloadBytes: dbEnv().HANDOFF_MAX_PAYLOAD_BYTES });
      await owner.driveToIdle();
    } finally {
      await owner.release();
      await progress?.stop();
      // One last delivery round; what still fails stays in the outbox for the service's workers.
      await hooks?.deliverDue().catch(() => 0);
      await hooks?.stop();
    }
    const result = await readHeadlessResult(db, sessionId, performance.now() - started);
    if (format === "json") process.stdout.write(`${JSON.stringify(result)}\n`);
    else writeText(result);
    return result.is_error ? 1 : 0;
  } finally {
    await runtime.close();
    await database.close();
  }
}

function writeText(result: HeadlessResult): void {
  if (!result.is_error) {
    const value = result.result;
    process.stdout.write(`${typeof value === "string" ? value : JSON.stringify(value, null, 2)}\n`);
    return;
  }
  process.stderr.write(
    `handoff run: no result — the agent stopped with ${result.stop_reason}` +
      `${result.failure_tag ? ` (failure tag ${result.failure_tag})` : ""}; verdict ${result.verdict}\n`,
  );
}

/** Prints the run's events to stderr as they are committed (text mode). */
function followProgress(db: Db, sessionId: string): { stop(): Promise<void> } {
  let after = 0;
  let stopped = false;
  const tick = async () => {
    for (const e of await readEvents(db.sql, sessionId, after)) {
      after = e.seq;
      const line = describe(e);
      if (line) process.stderr.write(`${line}\n`);
    }
  };
  const loop = (async () => {
    while (!stopped) {
      await tick().catch(() => {});
      await new Promise((r) => setTimeout(r, 200));
    }
    await tick().catch(() => {});
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

function describe(e: StoredEvent): string | null {
  const d = e.data as Record<string, unknown>;
  const who = e.agentId ? `[${e.agentId.slice(-6)}] ` : "";
  switch (e.type) {
    case "model-step.end":
      return d.error
        ? `${who}step ${d.number} failed: ${d.error}`
        : `${who}step ${d.number}: ${d.finishReason} (${(d.usage as { input: number }).input} in / ${(d.usage as { output: number }).output} out)`;
    case "model-step.retry":
      return `${who}retrying the model request (${d.reason}) in ${d.delayMs} ms`;
    case "tool-call.start":
      return `${who}→ ${d.name} ${JSON.stringify(d.args).slice(0, 120)}`;
    case "tool-call.end":
      return d.isError ? `${who}  ✗ ${String(d.output).slice(0, 200)}` : null;
    case "agent.nudge":
      return `${who}reminded to reply (${d.nudge}/${d.budget})`;
    case "agent.end": {
      const ev = d.evidence as { verdict: string };
      return `${who}ended: ${d.stopReason}${d.failureTag ? ` (${d.failureTag})` : ""}, ${ev.verdict}`;
    }
    default:
      return null;
  }
}
