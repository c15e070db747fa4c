import postgres from "postgres";
import type { Db } from "@handoff/db";

export interface CountingDb extends Db {
  /** Statements sent so far (BEGIN and COMMIT included), by their first word. */
  counts(): Map<string, number>;
  total(): number;
  reset(): void;
}

/**
 * A pool like `createDb`'s that counts every statement it sends (postgres-js's `debug` hook).
 * Each statement is one round trip to Postgres, except those postgres-js pipelines on a
 * connection — which Handoff's code, awaiting each statement in turn, does not do.
 */
export function createCountingDb(url: string, options: { max?: number } = {}): CountingDb {
  let counts = new Map<string, number>();
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    connection: { application_name: "bench-counting" },
    // The same int8 parsing as createDb (packages/db/src/client.ts): the code under test relies on it.
    types: { int8: { to: 20, from: [20], serialize: (n: number) => String(n), parse: (s: string) => Number(s) } },
    debug: (_connection, query) => {
      const word = /^\s*(\w+)/.exec(query)?.[1]?.toUpperCase() ?? "?";
      counts.set(word, (counts.get(word) ?? 0) + 1);
    },
  });
  return {
    sql,
    close: () => sql.end({ timeout: 5 }),
    counts: () => new Map(counts),
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    reset: () => {
      counts = new Map();
    },
  };
}
