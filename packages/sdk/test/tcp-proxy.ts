import net from "node:net";
import { onTestFinished } from "vitest";

/**
 * A loopback TCP proxy whose `cut()` drops every open connection, as a flaky network would,
 * and whose `stall()` silently stops forwarding on the open ones (new connections go through).
 */
export async function tcpProxy(targetPort: number) {
  const sockets = new Set<net.Socket>();
  const pairs = new Set<[net.Socket, net.Socket]>();
  let cuts = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, "127.0.0.1");
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    client.on("close", () => pairs.delete(pair));
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  onTestFinished(close);
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      cuts++;
      for (const s of sockets) s.destroy();
    },
    stall() {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
      pairs.clear();
    },
    get cuts() {
      return cuts;
    },
  };
}
