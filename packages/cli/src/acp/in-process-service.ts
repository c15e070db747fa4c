import { EventHub, RateLimiter, serveApi, TokenVerifier } from "@handoff/api";
import { createToken, openDatabase, revokeToken } from "@handoff/db";
import { createRuntime, runtimeEnv, startHookDeliverer } from "@handoff/runtime";
import { startWorker } from "@handoff/worker";
import pino from "pino";
import { cliEnv } from "../env";

/** A Handoff service the bridge talks to over HTTP, like any SDK client. */
export interface Service {
  url: string;
  token?: string;
  close(): Promise<void>;
}

// The pool of a process that serves one editor: a few sessions at once, the service's lease settings.
const WORKER = { concurrency: 4, leaseTtlMs: 10_000, pollMs: 2_000, drainGraceMs: 5_000 };

/**
 * The whole service in this process: the database (DATABASE_URL, or embedded), the agent
 * runtime, the API on 127.0.0.1 with a token minted for this process (revoked on close), and
 * a worker pool with the runtime's driver. Logs go to stderr: stdout carries the protocol.
 */
export async function startInProcessService(log: (line: string) => void): Promise<Service> {
  const env = cliEnv();
  const database = await openDatabase(env, { applicationName: "handoff-acp", log });
  const closers: (() => Promise<unknown>)[] = [() => database.close()];
  const close = async () => {
    for (const step of closers.splice(0).reverse()) await step().catch((e: Error) => log(`shutdown: ${e.message}`));
  };
  try {
    const { db } = database;
    const runtime = await createRuntime(runtimeEnv());
    closers.push(() => runtime.close());
    const served = await serveApi({
      db,
      hub: new EventHub(db),
      profiles: runtime.runtime.profiles,
      tokens: new TokenVerifier(db),
      // One local client: the per-token rate limit protects a shared service, not this process.
      rateLimiter: new RateLimiter(1_000_000),
      limits: { maxPayloadBytes: env.HANDOFF_MAX_PAYLOAD_BYTES, eventsPageSize: 500, leaseTtlMs: WORKER.leaseTtlMs },
    });
    closers.push(() => served.close());
    const token = await createToken(db, { role: "operator", workspaceId: "default", name: `handoff acp (pid ${process.pid})` });
    closers.push(() => revokeToken(db, token.tokenId));
    const worker = await startWorker({
      databaseUrl: database.url,
      driver: runtime.driver,
      ...WORKER,
      logger: pino({ level: "info", base: { pid: process.pid } }, pino.destination({ dest: 2, sync: true })),
    });
    closers.push(() => worker.drain());
    if (runtime.runtime.webhooks.length > 0) {
      const hooks = startHookDeliverer(db, { webhooks: runtime.runtime.webhooks });
      closers.push(() => hooks.stop());
    }
    return { url: served.url, token: token.token, close };
  } catch (e) {
    await close();
    throw e;
  }
}
