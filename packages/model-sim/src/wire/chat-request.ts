import { z } from "zod";

/**
 * The parts of a Chat Completions request the simulator reads. Loose: everything else a client
 * sends is accepted and kept in the request log as sent.
 */
export const ChatRequest = z.looseObject({
  model: z.string().optional(),
  messages: z.array(z.unknown()),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  tools: z
    .array(z.looseObject({ type: z.string().optional(), function: z.looseObject({ name: z.string() }) }))
    .nullish(),
  tool_choice: z.unknown().optional(),
});
export type ChatRequest = z.infer<typeof ChatRequest>;
