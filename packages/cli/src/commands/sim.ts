import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { createModelSim, getBuiltinScenario, loadScenarioFile } from "@handoff/model-sim";

/** `handoff sim --port P --scenario FILE|NAME`: model-sim as a process of its own. */
export async function simCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { port: { type: "string", default: "0" }, scenario: { type: "string", default: "demo" } },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, not "${values.port}"`);
  const scenario = existsSync(values.scenario) ? await loadScenarioFile(values.scenario) : getBuiltinScenario(values.scenario);
  const sim = await createModelSim({ port, scenario });
  process.stdout.write(`model-sim listening: ${sim.url} (scenario ${values.scenario}); requests at ${sim.url.replace(/\/v1$/, "")}/_sim/requests\n`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await sim.close();
  return 0;
}
