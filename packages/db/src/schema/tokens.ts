import { index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/** API tokens. Only a SHA-256 of the token is stored; the token itself is shown once, at creation. */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: text().primaryKey(),
    tokenHash: text().notNull(),
    role: text({ enum: ["viewer", "operator", "admin"] }).notNull(),
    workspaceId: text().notNull(),
    name: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex("api_tokens_hash_uq").on(t.tokenHash), index("api_tokens_workspace_idx").on(t.workspaceId)],
);
