import { tracked, type TRPCRouterRecord } from "@trpc/server";
import { assertPayloadFits, cancelMessage, createSession, enqueue, HandoffError, requestSessionCancel } from "@handoff/db";
import { z } from "zod";
import { toWire } from "../events/wire-event";
import { IdempotencyKey, MessageId, SessionId, AgentId, StorableText } from "../ids";
import { listSessions, ListSessionsInput } from "../queries/list-sessions";
import { sessionSummary } from "../queries/session-summary";
import { sessionInWorkspace } from "../auth/workspace";
import { publicProcedure, type ApiContext } from "../trpc";

const Text = z.string().min(1, "text must not be empty").pipe(StorableText);
const ModelRef = z.string().regex(/^(openai-compatible|openai|anthropic|sim):.+$/, 'model must be "provider:model"');

/**
 * C5: the inbox admits, it does not answer — a send returns `{ messageId }` once the message is
 * durable. The workspace check, the prompt rules and the insert are one statement (`enqueue`).
 */
async function send(
  ctx: ApiContext,
  input: { sessionId: string; text: string; idempotencyKey?: string; agentId?: string },
  kind: "prompt" | "followup" | "steer",
): Promise<{ messageId: string }> {
  const { messageId } = await enqueue(
    ctx.db,
    { sessionId: input.sessionId, kind, payload: { text: input.text }, idempotencyKey: input.idempotencyKey, targetAgentId: input.agentId },
    { maxPayloadBytes: ctx.limits.maxPayloadBytes, workspaceId: ctx.auth!.workspaceId },
  );
  return { messageId };
}

const SendInput = z.strictObject({ sessionId: SessionId, text: Text, idempotencyKey: IdempotencyKey.optional() });
const StreamInput = z.strictObject({ sessionId: SessionId, lastEventId: z.string().regex(/^\d+$/).nullish() });

export const sessionRouter = {
  create: publicProcedure
    .input(
      z.strictObject({
        mode: z.enum(["interactive", "headless"]),
        profile: z.string().min(1).max(100).default("general"),
        title: z.string().max(500).pipe(StorableText).optional(),
        model: ModelRef.optional(),
        /** The root agent's model base URL (an `openai-compatible` server), overriding the service default. */
        baseUrl: z.url({ protocol: /^https?$/, error: "baseUrl must be an http(s) URL" }).max(2000).optional(),
        /** The root agent's step cap (C2), overriding its profile's. */
        maxSteps: z.number().int().min(1).max(1000).optional(),
        /** Sent as the first prompt in the same call. */
        prompt: Text.optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      try {
        ctx.profiles.get(input.profile);
      } catch (e) {
        throw new HandoffError("INVALID_INPUT", (e as Error).message);
      }
      // A prompt that would be refused must not leave a session behind: check its size first.
      if (input.prompt) assertPayloadFits({ text: input.prompt }, ctx.limits.maxPayloadBytes);
      const created = await createSession(ctx.db, {
        mode: input.mode,
        profile: input.profile,
        title: input.title,
        model: input.model,
        config: { baseUrl: input.baseUrl, maxSteps: input.maxSteps },
        workspaceId: ctx.auth!.workspaceId,
      });
      const sent = input.prompt ? await send(ctx, { sessionId: created.sessionId, text: input.prompt }, "prompt") : null;
      return { ...created, messageId: sent?.messageId ?? null };
    }),

  prompt: publicProcedure.input(SendInput).mutation(({ ctx, input }) => send(ctx, input, "prompt")),
  followup: publicProcedure.input(SendInput).mutation(({ ctx, input }) => send(ctx, input, "followup")),
  /** Admitted at the next step boundary of the running turn (or starts a turn when none runs). */
  steer: publicProcedure
    .input(SendInput.extend({ agentId: AgentId.optional() }))
    .mutation(({ ctx, input }) => send(ctx, input, "steer")),

  /** One queued message, or (without messageId) the whole session: queued messages cancelled, running turn aborted. */
  cancel: publicProcedure
    .input(z.strictObject({ sessionId: SessionId, messageId: MessageId.optional() }))
    .mutation(async ({ ctx, input }) => {
      await sessionInWorkspace(ctx, input.sessionId);
      if (input.messageId) {
        const { changed } = await cancelMessage(ctx.db, { sessionId: input.sessionId, messageId: input.messageId });
        return { cancelledMessages: changed ? [input.messageId] : [], runningTurns: 0 };
      }
      return requestSessionCancel(ctx.db, input.sessionId);
    }),

  get: publicProcedure.input(z.strictObject({ sessionId: SessionId })).query(async ({ ctx, input }) => {
    await sessionInWorkspace(ctx, input.sessionId);
    return sessionSummary(ctx.db.sql, input.sessionId);
  }),

  /** The caller's workspace's sessions only. */
  list: publicProcedure.input(ListSessionsInput).query(({ ctx, input }) => listSessions(ctx.db.sql, input, ctx.auth!.workspaceId)),

  /** The inbox: each message with its state and the turn that admitted it. */
  messages: publicProcedure.input(z.strictObject({ sessionId: SessionId })).query(async ({ ctx, input }) => {
    await sessionInWorkspace(ctx, input.sessionId);
    return ctx.db.sql<
      { id: string; kind: string; state: string; targetAgentId: string | null; admittedTurnId: string | null; payload: unknown; queuedAt: Date }[]
    >`
      SELECT id, kind, state, target_agent_id AS "targetAgentId", admitted_turn_id AS "admittedTurnId", payload,
             queued_at AS "queuedAt", admitted_at AS "admittedAt", cancelled_at AS "cancelledAt"
      FROM inbox_messages WHERE session_id = ${input.sessionId} ORDER BY arrival`;
  }),

  /**
   * Durable events from `lastEventId` (a seq) on, then live. It subscribes before it reads, so
   * nothing falls between replay and live; a reconnect with Last-Event-ID resumes with no gap
   * and no duplicate.
   */
  events: publicProcedure.input(StreamInput).subscription(async function* ({ ctx, input, signal }) {
    await sessionInWorkspace(ctx, input.sessionId);
    const wakeups = await ctx.hub.subscribe(input.sessionId, signal);
    try {
      let cursor = Number(input.lastEventId ?? 0);
      while (!signal?.aborted) {
        const page = await ctx.hub.read(input.sessionId, cursor, ctx.limits.eventsPageSize);
        for (const e of page) {
          cursor = e.seq;
          yield tracked(String(e.seq), toWire(e));
        }
        if (page.length < ctx.limits.eventsPageSize) await wakeups.next(cursor);
      }
    } finally {
      wakeups.close();
    }
  }),

  /** Whole-session status transitions: the current status first, then each change. */
  status: publicProcedure.input(StreamInput).subscription(async function* ({ ctx, input, signal }) {
    await sessionInWorkspace(ctx, input.sessionId);
    const wakeups = await ctx.hub.subscribe(input.sessionId, signal);
    try {
      let cursor: number;
      if (input.lastEventId) {
        cursor = Number(input.lastEventId);
      } else {
        const current = await sessionSummary(ctx.db.sql, input.sessionId);
        cursor = current.lastSeq;
        yield tracked(String(cursor), { status: current.status, seq: cursor });
      }
      while (!signal?.aborted) {
        const page = await ctx.hub.read(input.sessionId, cursor, ctx.limits.eventsPageSize);
        for (const e of page) {
          cursor = e.seq;
          if (e.type === "session.status") yield tracked(String(e.seq), { status: String(e.data.status), seq: e.seq });
        }
        if (page.length < ctx.limits.eventsPageSize) await wakeups.next(cursor);
      }
    } finally {
      wakeups.close();
    }
  }),
} satisfies TRPCRouterRecord;
