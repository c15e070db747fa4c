import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createModelSim, type ModelSim, type Scenario } from "@handoff/model-sim";
import { onTestFinished } from "vitest";
import { spawnWorker, type Spawned } from "./processes";

export interface Stage {
  sim: ModelSim;
  dataDir: string;
  /** The environment of every `handoff worker` of the test. */
  env: NodeJS.ProcessEnv;
  /** A session's workspace directory (created), where its tools read and write. */
  workspace(sessionId: string): Promise<string>;
  worker(options?: { name?: string; concurrency?: number }): Spawned;
}

export interface StageOptions {
  databaseUrl: string;
  scenario: Scenario;
  /** Profile files (`agents/<name>.md`), by name. */
  profiles?: Record<string, string>;
  /** More worker environment (HANDOFF_MODEL_TIMEOUT_MS, …). */
  env?: Record<string, string>;
}

/**
 * What every fault test runs on: model-sim in the test process, a data directory, and the
 * environment for real `handoff worker` processes pointed at both. Short leases and polls,
 * so a killed worker's sessions move on within about a second.
 */
export async function startStage(options: StageOptions): Promise<Stage> {
  const sim = await createModelSim({ scenario: options.scenario });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "handoff-fault-"));
  const agentsDir = path.join(dataDir, "agents");
  await mkdir(agentsDir);
  for (const [name, text] of Object.entries(options.profiles ?? {})) await writeFile(path.join(agentsDir, `${name}.md`), text);
  // Registered first, so it runs last: after every process of the test is gone.
  onTestFinished(async () => {
    await sim.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const env: NodeJS.ProcessEnv = {
    DATABASE_URL: options.databaseUrl,
    HANDOFF_MODEL: "openai-compatible:sim",
    HANDOFF_BASE_URL: sim.url,
    HANDOFF_DATA_DIR: dataDir,
    HANDOFF_AGENTS_DIR: agentsDir,
    HANDOFF_LEASE_TTL_MS: "1000",
    HANDOFF_POLL_MS: "200",
    // Warnings and errors only: a worker's output is shown when a test fails.
    HANDOFF_LOG_LEVEL: "warn",
    ...options.env,
  };
  return {
    sim,
    dataDir,
    env,
    async workspace(sessionId) {
      const dir = path.join(dataDir, "workspaces", sessionId);
      await mkdir(dir, { recursive: true });
      return dir;
    },
    worker: (o) => spawnWorker(env, o),
  };
}

/** A profile file with every workspace tool (and `task`), for a scenario keyed by its name. */
export function profileFile(name: string, extra = ""): string {
  return [
    "---",
    `name: ${name}`,
    `description: fault test profile ${name}`,
    "tools: [todo_write, task, read_file, write_file, edit_file, list_files, grep]",
    extra,
    "---",
    `You are the ${name} test agent.`,
    "",
  ]
    .filter((l) => l !== "")
    .join("\n");
}
