import { Readable } from "node:stream";
import { ndJsonStream, type Stream } from "@agentclientprotocol/sdk";

/**
 * The ACP connection on stdin/stdout. Stdout belongs to the protocol alone: from here on,
 * anything else written to it (a stray `console.log` in any package) goes to stderr, and
 * only the connection writes to the real stdout.
 */
export function stdioStream(): Stream {
  const stdout = process.stdout;
  const write = stdout.write.bind(stdout) as (chunk: Uint8Array, callback: (error?: Error | null) => void) => boolean;
  stdout.write = process.stderr.write.bind(process.stderr) as typeof stdout.write;
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => new Promise<void>((resolve, reject) => void write(chunk, (error) => (error ? reject(error) : resolve()))),
  });
  return ndJsonStream(output, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
}
