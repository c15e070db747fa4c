import { parseArgs } from "node:util";
import { createSession, enqueue, dbEnv, openDatabase, readEvents, type Db } from "@handoff/db";
import { createRuntime, ownSession, readHeadlessResult, runtimeEnv, startHookDeliverer, type HeadlessResult } from "@handoff/runtime";
import { cliEnv } from "../env";
import { ROOT_AGENT_OPTIONS, rootAgent, type RootAgent } from "../root-agent";
import { progressLine } from "../run/progress-line";
import { runAgainstService } from "../run/run-against-service";

const HELP = `handoff run "<prompt>" [--profile NAME] [--model PROVIDER:MODEL] [--base-url URL]
            [--max-steps N] [--output-format text|json] [--url SERVICE_URL]

Runs one headless session to its result. Text mode writes the reply to stdout and progress
to stderr; json mode prints one result object. Exit status 0 only when the root replied.
In process by default; with --url, on that running service (token from HANDOFF_TOKEN).`;

/** `handoff run`: one headless session, one result (DESIGN.md "Interfaces others script against"). */
export async function runCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...ROOT_AGENT_OPTIONS,
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
  const root = rootAgent(values);
  if (values.url && !URL.canParse(values.url)) throw new Error(`--url must be a URL, not "${values.url}"`);
  const result = values.url
    ? await runAgainstService({ url: values.url, token: cliEnv().HANDOFF_TOKEN, prompt, root, progress: format === "text" })
    : await runInProcess(prompt, root, format === "text");
  if (format === "json") process.stdout.write(`${JSON.stringify(result)}\n`);
  else writeText(result);
  return result.is_error ? 1 : 0;
}

/** The in-process mode: this process owns the session and drives it with the runtime. */
async function runInProcess(prompt: string, root: RootAgent, progress: boolean): Promise<HeadlessResult> {
  const started = performance.now();
  const env = runtimeEnv();
  const runtime = await createRuntime(env);
  runtime.runtime.profiles.get(root.profile); // an unknown profile fails here, naming the known ones
  const database = await openDatabase(dbEnv(), { applicationName: "handoff-run" });
  try {
    const { db } = database;
    const { sessionId } = await createSession(db, {
      mode: "headless",
      profile: root.profile,
      title: prompt.slice(0, 120),
      model: root.model ?? null,
      config: { baseUrl: root.baseUrl, maxSteps: root.maxSteps },
    });
    // Own the session before the prompt is queued, so a service worker woken by it finds it held.
    const owner = await ownSession(db, sessionId, runtime.driver);
    if (!owner) throw new Error(`session ${sessionId} was claimed by another worker`);
    const following = progress ? followProgress(db, sessionId) : null;
    const hooks = runtime.runtime.webhooks.length > 0 ? startHookDeliverer(db, { webhooks: runtime.runtime.webhooks }) : null;
    try {
      await enqueue(db, { sessionId, kind: "prompt", payload: { text: prompt } }, { maxPayloadBytes: dbEnv().HANDOFF_MAX_PAYLOAD_BYTES });
      await owner.driveToIdle();
    } finally {
      await owner.release();
      await following?.stop();
      // One last delivery round; what still fails stays in the outbox for the service's workers.
      await hooks?.deliverDue().catch(() => 0);
      await hooks?.stop();
    }
    return await readHeadlessResult(db, sessionId, performance.now() - started);
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
      const line = progressLine(e);
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
