import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { createApiHandler } from "./handler";
import type { ServiceContext } from "./trpc";

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
  const handle = createApiHandler(() => context);
  const server = createServer(async (req, res) => {
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    try {
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
        signal: abort.signal,
        ...(hasBody ? { duplex: "half" } : {}),
      } as RequestInit);
      const response = await handle(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (!response.body) return void res.end();
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (!res.write(chunk)) await new Promise((r) => res.once("drain", r));
      }
      res.end();
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
