import postgres from "postgres";

export type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;

/**
 * A connection pool. Queries are raw, commented SQL through postgres-js: drizzle owns the
 * schema and the migrations, but its driver would change how this pool parses timestamps.
 */
export interface Db {
  sql: Sql;
  close(): Promise<void>;
}

export interface DbOptions {
  max?: number;
  /** Name shown in pg_stat_activity. */
  applicationName?: string;
}

export function createDb(url: string, options: DbOptions = {}): Db {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    connection: { application_name: options.applicationName ?? "handoff" },
    // Reconnect fast after a server restart (the default backoff grows to 20 s, shared by the pool).
    backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 1),
    // int8 columns (seq, epochs, token counts) stay far below 2^53: read them as numbers.
    types: { int8: { to: 20, from: [20], serialize: (n: number) => String(n), parse: (s: string) => Number(s) } },
  });
  return { sql, close: () => sql.end({ timeout: 5 }) };
}
