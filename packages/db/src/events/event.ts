import { z } from "zod";

/** An event as appended: the log assigns `seq` and time. */
export const NewEvent = z.object({
  type: z.string().min(1),
  agentId: z.string().nullish(),
  turnId: z.string().nullish(),
  data: z.record(z.string(), z.unknown()).default({}),
});
export type NewEvent = z.input<typeof NewEvent>;

/** An event as stored and streamed. */
export interface StoredEvent {
  sessionId: string;
  seq: number;
  type: string;
  agentId: string | null;
  turnId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** Channel that carries `<sessionId>:<lastSeq>` after each commit that appended events. */
export const EVENTS_CHANNEL = "handoff_events";
