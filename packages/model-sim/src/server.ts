import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "./http/read-body";
import { sendJson } from "./http/send-json";
import type { RecordedRequest } from "./request-log";
import { chatCompletions } from "./routes/chat-completions";
import { modelsBody } from "./routes/models";
import { parseScenario } from "./scenario/parse-scenario";
import type { Scenario } from "./scenario/scenario";
import { SimState } from "./sim-state";
import { errorBody } from "./wire/error-body";

export interface ModelSimOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  scenario: Scenario;
}

export interface ModelSim {
  /** The OpenAI-compatible base URL, `http://127.0.0.1:PORT/v1`. */
  url: string;
  port: number;
  close(): Promise<void>;
  /** Every `/v1` request received, in arrival order. */
  requests(): RecordedRequest[];
  clearRequests(): void;
  /** Validates and swaps the scenario; every agent instance starts over. */
  setScenario(scenario: Scenario): void;
}

/** Starts model-sim on 127.0.0.1. */
export async function createModelSim(options: ModelSimOptions): Promise<ModelSim> {
  const state = new SimState(parseScenario(options.scenario, "createModelSim"));
  const server = createServer((req, res) => {
    route(state, req, res).catch((e: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(500, `model-sim internal error: ${(e as Error).message}`));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        // Keep-alive and stalled connections would hold close() open; a test owns them all, so end them.
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    requests: () => state.log.list(),
    clearRequests: () => state.log.clear(),
    setScenario: (scenario) => state.book.replace(parseScenario(scenario, "setScenario")),
  };
}

async function route(state: SimState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const arrivedAt = new Date();
  const path = new URL(req.url ?? "/", "http://sim").pathname.replace(/\/+$/, "") || "/";
  const method = req.method ?? "GET";
  const raw = await readBody(req);

  if (path.startsWith("/v1/")) {
    state.log.record(req, path, arrivedAt, raw);
    if (path === "/v1/chat/completions" && method === "POST") {
      const body = parseJson(raw);
      if (body === INVALID) return sendJson(res, 400, errorBody(400, "request body is not valid JSON"));
      return chatCompletions(state, req, res, body);
    }
    if (path === "/v1/models" && method === "GET") return sendJson(res, 200, modelsBody());
  }
  if (path === "/_sim/requests" && method === "GET") return sendJson(res, 200, state.log.list());
  if (path === "/_sim/requests" && method === "DELETE") {
    state.log.clear();
    return void res.writeHead(204).end();
  }
  if (path === "/_sim/scenario" && method === "GET") return sendJson(res, 200, state.book.scenario);
  if (path === "/_sim/scenario" && method === "PUT") {
    const body = parseJson(raw);
    if (body === INVALID) return sendJson(res, 400, errorBody(400, "PUT /_sim/scenario: body is not valid JSON"));
    try {
      state.book.replace(parseScenario(body, "PUT /_sim/scenario"));
    } catch (e) {
      return sendJson(res, 400, errorBody(400, (e as Error).message));
    }
    return void res.writeHead(204).end();
  }
  sendJson(res, 404, errorBody(404, `model-sim has no route ${method} ${path}`));
}

const INVALID = Symbol("invalid JSON");

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return INVALID;
  }
}
