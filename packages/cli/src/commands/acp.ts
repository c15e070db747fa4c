import { parseArgs } from "node:util";
import { Handoff } from "@handoff/sdk";
import { EventSource } from "eventsource";
import { acpBridge } from "../acp/acp-agent";
import { startInProcessService, type Service } from "../acp/in-process-service";
import { stdioStream } from "../acp/stdio-stream";
import { cliEnv } from "../env";
import { ROOT_AGENT_OPTIONS, rootAgent } from "../root-agent";

const HELP = `handoff acp [--url SERVICE_URL] [--profile NAME] [--model PROVIDER:MODEL] [--base-url URL]
            [--max-steps N]

An Agent Client Protocol (v1) agent on stdin/stdout, for editors. Each ACP session is an
interactive Handoff session whose root agent has the given profile, model and caps.
In process by default (DATABASE_URL or embedded Postgres, with a worker pool of its own);
with --url, a client of that running service (token from HANDOFF_TOKEN). Logs go to stderr.`;

/** `handoff acp`: the ACP bridge (DESIGN.md C5). */
export async function acpCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { ...ROOT_AGENT_OPTIONS, url: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const root = rootAgent(values);
  if (values.url && !URL.canParse(values.url)) throw new Error(`--url must be a URL, not "${values.url}"`);
  const log = (line: string) => process.stderr.write(`handoff acp: ${line}\n`);

  const stream = stdioStream();
  const service: Promise<Service> = values.url
    ? Promise.resolve({ url: values.url, token: cliEnv().HANDOFF_TOKEN, close: async () => {} })
    : startInProcessService(log);
  // The connection opens at once (editors expect a quick `initialize`); sessions wait for the service.
  const handoff = service.then((s) => new Handoff({ url: s.url, token: s.token, EventSource }));
  handoff.catch(() => {}); // a failed start is reported below, once
  const bridge = acpBridge({ handoff, root, log });
  const connection = bridge.app.connect(stream);
  const signalled = new Promise<string>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
  let running: Service | undefined;
  try {
    running = await service;
    log(`ready: Handoff at ${running.url}${values.url ? "" : " (in process)"}; ACP on stdio`);
    const why = await Promise.race([connection.closed.then(() => "the client closed the connection"), signalled]);
    log(`stopping: ${why}`);
    return 0;
  } finally {
    bridge.close();
    connection.close();
    process.stdin.destroy();
    await running?.close();
  }
}
