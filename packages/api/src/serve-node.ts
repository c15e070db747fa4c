import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createTrpcHandler } from "./handler";
import { answerMutations } from "./http/mutation-calls";
import { bodyTooLargeAnswer, maxRequestBytes, readNodeBody } from "./http/request-body";
import type { ServiceContext } from "./trpc";

const ENDPOINT = "/api/trpc";

export interface ServedApi {
  /** Base URL of the service, e.g. http://127.0.0.1:PORT (the API is at /api/trpc). */
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Serves the same `/api/trpc` handler the web app mounts, on a plain Node HTTP server: for
 * tests, and for in-process use by the CLI (ACP bridge) without the dashboard.
 */
export async function serveApi(context: ServiceContext, options: { port?: number; host?: string } = {}): Promise<ServedApi> {
  const handle = createTrpcHandler(() => context);
  const limit = maxRequestBytes(context.limits.maxPayloadBytes);
  const server = createServer(async (req, res) => {
    try {
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const url = new URL(req.url ?? "/", "http://localhost");
      // Request bodies are small JSON: read whole, they cost less than a web stream.
      const body = hasBody ? await readNodeBody(req, limit) : undefined;
      if (body === null) {
        const refused = bodyTooLargeAnswer(url, ENDPOINT, limit);
        // Whatever came past the limit was discarded, not kept; this connection carries nothing more.
        return void res.writeHead(refused.status, { "content-type": "application/json", connection: "close" }).end(refused.json);
      }
      if (body && req.method === "POST" && url.pathname.startsWith(`${ENDPOINT}/`)) {
        const answer = await answerMutations(context, {
          path: url.pathname.slice(ENDPOINT.length + 1),
          search: url.searchParams,
          body: body.toString("utf8"),
          header: (name) => headerOf(req, name),
        });
        if (answer) return void res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.json);
      }
      const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: body && new Uint8Array(body),
        // Streams (GET) end when their client goes; a mutation, once received, runs to its commit.
        signal: hasBody ? undefined : abortOnClientGone(res),
      });
      const response = await handle(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (!response.body) return void res.end();
      if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
        // A JSON answer goes out in one write.
        return void res.end(Buffer.from(await response.arrayBuffer()));
      }
      await writeEventStream(response.body, res);
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: (e as Error).message }));
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function abortOnClientGone(res: ServerResponse): AbortSignal {
  const abort = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  return abort.signal;
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * An SSE body, chunk by chunk as it comes; the chunks of one burst (the events one wakeup
 * reads) leave in one write rather than one each.
 */
async function writeEventStream(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  let corked = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!corked) {
      corked = true;
      res.cork();
      process.nextTick(() => {
        corked = false;
        res.uncork();
      });
    }
    if (!res.write(value)) await new Promise((r) => res.once("drain", r));
  }
  res.end();
}
