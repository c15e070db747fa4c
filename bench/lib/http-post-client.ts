import net from "node:net";

export interface PostAnswer {
  status: number;
  body: string;
}

/**
 * A load generator's HTTP/1.1 client, as wrk and autocannon are: keep-alive sockets that each
 * carry one request at a time, the request written in one piece and the answer read by its
 * Content-Length (or chunks). It does far less per request than `http.request`, so at low
 * concurrency, where every process's CPU is on the critical path, the figures show the
 * server's cost rather than the load generator's. It speaks only what the benchmarks send.
 */
export class HttpPostClient {
  private readonly idle: Connection[] = [];
  private readonly all = new Set<Connection>();

  constructor(
    private readonly baseUrl: string,
    private readonly headers: Record<string, string>,
  ) {}

  async post(path: string, body: string): Promise<PostAnswer> {
    const connection = this.takeIdle() ?? (await this.connect());
    const head =
      `POST ${path} HTTP/1.1\r\nhost: ${new URL(this.baseUrl).host}\r\nconnection: keep-alive\r\n` +
      Object.entries(this.headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("") +
      `content-length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const answer = await connection.send(head + body);
    connection.idleSince = performance.now();
    this.idle.push(connection);
    return answer;
  }

  /**
   * The most recently used open connection. Node's server closes a connection idle for 5 s
   * (keepAliveTimeout), so one idle for 4 s is closed here instead of raced, as Node's own
   * agent does from the server's Keep-Alive hint.
   */
  private takeIdle(): Connection | undefined {
    for (let c = this.idle.pop(); c; c = this.idle.pop()) {
      if (!c.socket.destroyed && performance.now() - c.idleSince < IDLE_MS) return c;
      c.socket.destroy();
    }
    return undefined;
  }

  close(): void {
    for (const c of this.all) c.socket.destroy();
    this.all.clear();
    this.idle.length = 0;
  }

  private async connect(): Promise<Connection> {
    const { hostname, port } = new URL(this.baseUrl);
    const socket = net.connect({ host: hostname, port: Number(port), noDelay: true });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    const connection = new Connection(socket);
    this.all.add(connection);
    socket.on("close", () => this.all.delete(connection));
    return connection;
  }
}

const IDLE_MS = 4_000;

class Connection {
  idleSince = 0;
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (a: PostAnswer) => void; reject: (e: Error) => void } | null = null;

  constructor(readonly socket: net.Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      this.tryAnswer();
    });
    const fail = (e: Error) => {
      this.waiting?.reject(e);
      this.waiting = null;
    };
    socket.on("error", fail);
    socket.on("close", () => fail(new Error("the server closed the connection")));
  }

  send(request: string): Promise<PostAnswer> {
    if (this.waiting) throw new Error("one request at a time per connection");
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(request);
    });
  }

  private tryAnswer(): void {
    const end = this.buffered.indexOf("\r\n\r\n");
    if (end < 0 || !this.waiting) return;
    const head = this.buffered.toString("latin1", 0, end);
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
    let body: string;
    let rest: Buffer;
    if (length !== undefined) {
      const size = Number(length);
      if (this.buffered.length < end + 4 + size) return;
      body = this.buffered.toString("utf8", end + 4, end + 4 + size);
      rest = this.buffered.subarray(end + 4 + size);
    } else if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      const chunks = readChunks(this.buffered, end + 4);
      if (!chunks) return;
      body = chunks.body;
      rest = this.buffered.subarray(chunks.next);
    } else {
      this.waiting.reject(new Error(`an answer without a length: ${head.slice(0, 200)}`));
      this.waiting = null;
      return;
    }
    this.buffered = rest;
    const { resolve } = this.waiting;
    this.waiting = null;
    resolve({ status, body });
  }
}

/** A chunked body from `at`, or null while it is incomplete. */
function readChunks(buffer: Buffer, at: number): { body: string; next: number } | null {
  const parts: Buffer[] = [];
  for (;;) {
    const lineEnd = buffer.indexOf("\r\n", at);
    if (lineEnd < 0) return null;
    const size = parseInt(buffer.toString("latin1", at, lineEnd), 16);
    if (buffer.length < lineEnd + 2 + size + 2) return null;
    if (size === 0) return { body: Buffer.concat(parts).toString("utf8"), next: lineEnd + 4 };
    parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
