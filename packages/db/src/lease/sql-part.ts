import type { Sql, Tx } from "../client";

/** A piece of SQL and its values, written as a tagged template: `sqlPart\`… ${value}::text …\``. */
export interface SqlPart {
  strings: readonly string[];
  values: readonly unknown[];
}

/**
 * A statement's piece that is not a postgres-js query: fencedWrite joins pieces into one
 * text with numbered parameters and sends it as one prepared statement. (A postgres-js
 * fragment is a whole Query object each, and a step's write is built from a dozen.)
 */
export function sqlPart(strings: TemplateStringsArray, ...values: unknown[]): SqlPart {
  return { strings, values };
}

/** Joins parts into SQL text with `$n` placeholders, appending their values to `params`. */
export function joinParts(parts: readonly (SqlPart | string)[], params: unknown[]): string {
  let text = "";
  for (const p of parts) {
    if (typeof p === "string") {
      text += p;
      continue;
    }
    text += p.strings[0];
    for (let i = 0; i < p.values.length; i++) text += `$${params.push(p.values[i])}` + p.strings[i + 1];
  }
  return text;
}

/** Sends the joined parts as one prepared statement (postgres-js caches it by its text). */
export function queryParts<R extends object>(sql: Sql | Tx, parts: readonly (SqlPart | string)[]): Promise<R[]> {
  const params: unknown[] = [];
  const text = joinParts(parts, params);
  return sql.unsafe<R[]>(text, params as never[], { prepare: true }) as unknown as Promise<R[]>;
}
