import { z } from "zod";

/** The finish reasons a script may ask for, as OpenAI spells them on the wire. */
export const FinishReason = z.enum(["stop", "length", "tool_calls", "content_filter"]);
export type FinishReason = z.infer<typeof FinishReason>;

export const ScriptedToolCall = z.strictObject({
  name: z.string().min(1),
  args: z.record(z.string(), z.unknown()),
  /**
   * Extension: send this call only when the request offered a tool of this name.
   * Lets one script serve both an interactive root (never offered `reply`) and a returning agent.
   */
  ifOffered: z.boolean().optional(),
});
export type ScriptedToolCall = z.infer<typeof ScriptedToolCall>;

export const StepError = z.strictObject({
  status: z.number().int().min(400).max(599),
  retryAfterSeconds: z.number().min(0).optional(),
  /** Extension: the error message in the body; a generic one names the status otherwise. */
  message: z.string().optional(),
});
export type StepError = z.infer<typeof StepError>;

export const StepUsage = z.strictObject({
  input: z.number().int().min(0),
  output: z.number().int().min(0),
});
export type StepUsage = z.infer<typeof StepUsage>;

/** Fields that shape a completion; an `error` step sends none of them, so they may not appear with it. */
const COMPLETION_FIELDS = ["text", "toolCalls", "finish", "malformedToolCallJson", "resetAfterChunks"] as const;

/** One scripted answer to one model request (see the package README for every field). */
export const Step = z
  .strictObject({
    text: z.string().optional(),
    toolCalls: z.array(ScriptedToolCall).optional(),
    finish: FinishReason.optional(),
    error: StepError.optional(),
    /** A stall before the response starts; abandoned when the client disconnects. */
    delayMs: z.number().int().min(0).max(600_000).optional(),
    usage: StepUsage.optional(),
    /** Fault: every tool call's `arguments` string is cut short, so it is not valid JSON. */
    malformedToolCallJson: z.boolean().optional(),
    /** Fault: destroy the socket after this many SSE `data:` events (a connection reset). */
    resetAfterChunks: z.number().int().min(0).optional(),
    /** Extension: this step answers every later request of the agent instance too. */
    repeatForever: z.boolean().optional(),
  })
  .superRefine((step, ctx) => {
    if (step.error) {
      for (const field of COMPLETION_FIELDS) {
        if (step[field] !== undefined) {
          ctx.addIssue({
            code: "custom",
            path: [field],
            message: `an error step answers with the HTTP error only; remove "${field}" or "error"`,
          });
        }
      }
    }
    if (step.malformedToolCallJson && !step.toolCalls?.length) {
      ctx.addIssue({
        code: "custom",
        path: ["malformedToolCallJson"],
        message: "needs at least one entry in toolCalls to malform",
      });
    }
  });
export type Step = z.infer<typeof Step>;

/** A scenario: per profile name (or `*` for any other), the steps each agent instance plays in order. */
export const Scenario = z.strictObject({
  agents: z.record(z.string().min(1), z.array(Step)),
});
export type Scenario = z.infer<typeof Scenario>;
