import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { isHandoffError, type Db, type HandoffErrorCode } from "@handoff/db";
import type { ProfileRegistry } from "@handoff/runtime";
import type { EventHub } from "./events/event-hub";

/** What every procedure can use: one per web process, shared by its requests. */
export interface ApiContext {
  db: Db;
  hub: EventHub;
  profiles: ProfileRegistry;
  limits: { maxPayloadBytes: number; eventsPageSize: number; leaseTtlMs: number };
}

/** SSE settings in one place: keep-alive pings, and a bound on one stream's life (clients resume by Last-Event-ID). */
export const SSE = { pingMs: 10_000, maxDurationMs: 10 * 60_000 };

const t = initTRPC.context<ApiContext>().create({
  isDev: false,
  sse: {
    ping: { enabled: true, intervalMs: SSE.pingMs },
    maxDurationMs: SSE.maxDurationMs,
    client: { reconnectAfterInactivityMs: SSE.pingMs * 3 },
  },
  // Errors carry a code and a message for the caller; never a stack trace.
  errorFormatter: ({ shape, error }) => ({
    ...shape,
    data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path, handoff: handoffDetails(error.cause) },
  }),
});

const CODES: Record<HandoffErrorCode, TRPC_ERROR_CODE_KEY> = {
  NOT_FOUND: "NOT_FOUND",
  INVALID_INPUT: "BAD_REQUEST",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  CONFLICT: "CONFLICT",
  FENCED: "CONFLICT",
  LIMIT_EXCEEDED: "TOO_MANY_REQUESTS",
};

function handoffDetails(cause: unknown): { code: string } | null {
  return isHandoffError(cause) ? { code: cause.code } : null;
}

/** Expected failures (HandoffError) become tRPC errors with the matching code and the same message. */
const handoffErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isHandoffError(result.error.cause)) {
    const cause = result.error.cause;
    throw new TRPCError({ code: CODES[cause.code], message: cause.message, cause });
  }
  return result;
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(handoffErrors);
