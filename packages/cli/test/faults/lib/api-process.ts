import { fileURLToPath } from "node:url";
import { waitFor } from "@handoff/db/testing";
import { spawnProcess, type Spawned } from "./processes";

const script = fileURLToPath(new URL("./api-server.ts", import.meta.url));

/** The API server (`serveApi`) in a child process on `port`; resolves once it listens. */
export async function spawnApi(env: NodeJS.ProcessEnv, port: number, name = "api"): Promise<Spawned & { url: string }> {
  const api = spawnProcess(name, ["--import", "tsx", script], { ...env, PORT: String(port) });
  const url = await waitFor(`${name} to listen on port ${port}`, () => {
    if (!api.alive()) throw new Error(`${name} exited before listening:\n${api.output()}`);
    return /listening (\S+)/.exec(api.output())?.[1];
  });
  return { ...api, url };
}
