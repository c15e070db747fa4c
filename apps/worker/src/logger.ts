import pino from "pino";

export type Logger = pino.Logger;
export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

/** JSON lines on stdout, one object per event, with an ISO time: what log shippers expect. */
export function createLogger(level: LogLevel = "info"): Logger {
  return pino({ level, timestamp: pino.stdTimeFunctions.isoTime, base: { pid: process.pid } });
}
