import { HandoffError, type Sql } from "@handoff/db";
import { z } from "zod";
import { SessionId, StorableText } from "../ids";
import { sessionSummaries, type SessionSummary } from "./session-summary";

export const ListSessionsInput = z.strictObject({
  limit: z.number().int().min(1).max(200).default(50),
  /** Opaque: the `nextCursor` of the previous page. */
  cursor: z.string().max(200).nullish(),
  status: z.array(z.enum(["idle", "running", "ended", "cancelled"])).max(4).optional(),
  verdict: z.array(z.enum(["COMPLETE", "INCOMPLETE", "UNVERIFIABLE", "NONE"])).max(4).optional(),
  /** Matches a session id exactly, or a title by substring (case-insensitive). */
  search: z.string().max(200).pipe(StorableText).optional(),
});
export type ListSessionsInput = z.input<typeof ListSessionsInput>;

/** Newest first, keyset-paginated on (created_at, id) so pages never skip or repeat a session. */
export async function listSessions(
  sql: Sql,
  input: z.output<typeof ListSessionsInput>,
  workspaceId: string,
): Promise<{ items: SessionSummary[]; nextCursor: string | null }> {
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const verdicts = input.verdict?.filter((v) => v !== "NONE") ?? [];
  const wantNone = input.verdict?.includes("NONE") ?? false;
  const search = input.search?.trim();
  // created_at as text keeps Postgres' microseconds: a JavaScript Date would round them away.
  const rows = await sql<{ id: string; createdAt: string }[]>`
    SELECT s.id, s.created_at::text AS "createdAt" FROM sessions s JOIN agents r ON r.id = s.root_agent_id
    WHERE s.workspace_id = ${workspaceId}
      ${after ? sql`AND (s.created_at, s.id) < (${after.createdAt}::timestamptz, ${after.id})` : sql``}
      ${input.status?.length ? sql`AND s.status = ANY(${input.status}::session_status[])` : sql``}
      ${
        input.verdict?.length
          ? sql`AND (r.verdict = ANY(${verdicts}::verdict[]) ${wantNone ? sql`OR r.verdict IS NULL` : sql``})`
          : sql``
      }
      ${search ? sql`AND (s.id = ${search} OR s.title ILIKE ${`%${search.replace(/[\\%_]/g, "\\$&")}%`})` : sql``}
    ORDER BY s.created_at DESC, s.id DESC
    LIMIT ${input.limit + 1}`;
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    items: await sessionSummaries(sql, { ids: page.map((r) => r.id) }),
    nextCursor: rows.length > input.limit && last ? encodeCursor(last.createdAt, last.id) : null,
  };
}

function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(`${createdAt}|${id}`).toString("base64url");
}

/** Only what encodeCursor writes: anything else (a NUL byte, a stray id) would fail in the database as a 500. */
function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id, ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const valid =
    rest.length === 0 &&
    createdAt !== undefined &&
    TIMESTAMP.test(createdAt) &&
    !Number.isNaN(Date.parse(createdAt)) &&
    SessionId.safeParse(id).success;
  if (!valid) throw new HandoffError("INVALID_INPUT", "invalid cursor: pass a nextCursor back unchanged");
  return { createdAt: createdAt!, id: id! };
}

/** A timestamptz as Postgres writes it (`2026-01-01 00:00:00.123456+00`). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;
