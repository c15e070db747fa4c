import { redact, redactJson } from "@handoff/db";
import pino from "pino";

export type Logger = pino.Logger;
export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

/**
 * JSON lines on stdout, one object per event, with an ISO time: what log shippers expect.
 * Registered secrets and token- or key-shaped strings are redacted from every line.
 */
export function createLogger(level: LogLevel = "info"): Logger {
  return pino({
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    base: { pid: process.pid },
    formatters: { log: (fields) => redactJson(fields) },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((a) => (typeof a === "string" ? redact(a) : a)) as Parameters<typeof method>);
      },
    },
  });
}
