import { acpCommand } from "./commands/acp";
import { migrateCommand } from "./commands/migrate";
import { runCommand } from "./commands/run";
import { simCommand } from "./commands/sim";
import { tokenCommand } from "./commands/token";
import { startCommand } from "./commands/start";
import { workerCommand } from "./commands/worker";

const USAGE = `handoff — hosted agent sessions

Usage:
  handoff start                 database, web app and workers (what \`npm start\` runs)
  handoff worker [--concurrency N]
                                one worker process against DATABASE_URL
  handoff run "<prompt>" [--profile NAME] [--model PROVIDER:MODEL] [--base-url URL]
              [--max-steps N] [--output-format text|json] [--url SERVICE_URL]
                                one headless session, one result (in process, or
                                against a running service with --url)
  handoff acp [--url SERVICE_URL] [--profile NAME] [--model PROVIDER:MODEL]
              [--base-url URL] [--max-steps N]
                                an Agent Client Protocol agent on stdio, for editors
  handoff sim [--port P] [--scenario FILE|NAME]
                                model-sim, an OpenAI-compatible scripted model server
  handoff token create --role R --workspace W
                                an API token (printed once); also: token list, token revoke ID
  handoff migrate               apply database migrations (DATABASE_URL or embedded)
  handoff help                  this text
`;

const commands: Record<string, (args: string[]) => Promise<number>> = {
  start: startCommand,
  worker: workerCommand,
  migrate: migrateCommand,
  run: runCommand,
  acp: acpCommand,
  sim: simCommand,
  token: tokenCommand,
};

/** Runs one command and exits with its status; a failure prints one clear line, not a stack. */
export async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    process.stdout.write(USAGE);
    return;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`handoff: unknown command "${name}"\n\n${USAGE}`);
    process.exit(2);
  }
  try {
    process.exitCode = await command(rest);
  } catch (e) {
    process.stderr.write(`handoff ${name}: ${(e as Error).message}\n`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main(process.argv.slice(2));
}
