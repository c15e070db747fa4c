import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { isHandoffError, roleAllows, type Db, type HandoffErrorCode, type TokenIdentity } from "@handoff/db";
import type { ProfileRegistry } from "@handoff/runtime";
import { ACCESS_RULES } from "./auth/access-rules";
import type { RateLimiter } from "./auth/rate-limiter";
import type { TokenVerifier } from "./auth/token-verifier";
import type { EventHub } from "./events/event-hub";

/** What every procedure can use: one per web process, shared by its requests. */
export interface ServiceContext {
  db: Db;
  hub: EventHub;
  profiles: ProfileRegistry;
  tokens: TokenVerifier;
  rateLimiter: RateLimiter;
  limits: { maxPayloadBytes: number; eventsPageSize: number; leaseTtlMs: number };
}

/** One request's context: the service's, plus who is calling (null: no valid token). */
export interface ApiContext extends ServiceContext {
  auth: TokenIdentity | null;
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

/**
 * Every procedure is authorized: a valid token, a role at least the procedure's rule
 * (ACCESS_RULES; a procedure without a rule is refused), and at most so many requests a
 * minute per token. Workspace scoping happens where ids are resolved (auth/workspace.ts).
 * Expected failures (HandoffError) then become tRPC errors with the matching code and the
 * same message.
 *
 * One middleware, and `next()` with the context as it is: each middleware level and each
 * context passed on costs tRPC two or three copies of the call's options, property by
 * property, on every call (decision 0018).
 */
const authorizedCall = t.middleware(async ({ ctx, path, next }) => {
  authorize(ctx, path);
  const result = await next();
  if (!result.ok && isHandoffError(result.error.cause)) {
    const cause = result.error.cause;
    throw new TRPCError({ code: CODES[cause.code], message: cause.message, cause });
  }
  return result;
});

function authorize(ctx: ApiContext, path: string): void {
  const needed = ACCESS_RULES[path];
  if (!needed) throw new TRPCError({ code: "FORBIDDEN", message: `${path} has no access rule` });
  if (!ctx.auth) {
    throw new TRPCError({ code: "UNAUTHORIZED", message: "a valid API token is required (Authorization: Bearer <token>)" });
  }
  if (!roleAllows(ctx.auth.role, needed)) {
    throw new TRPCError({ code: "FORBIDDEN", message: `${path} needs the ${needed} role; this token is ${ctx.auth.role}` });
  }
  const wait = ctx.rateLimiter.take(ctx.auth.tokenId);
  if (wait > 0) {
    throw new TRPCError({
      code: "TOO_MANY_REQUESTS",
      message: `rate limit: ${ctx.rateLimiter.perMinute} requests a minute per token (HANDOFF_RATE_LIMIT_PER_MINUTE); retry in ${wait} s`,
    });
  }
}

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(authorizedCall);
