/** What Postgres cannot store: NUL (text and jsonb refuse it) and unpaired surrogates (jsonb refuses them). */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** True when Postgres can store the text as it is (the API refuses anything else as BAD_REQUEST). */
export function isStorableText(text: string): boolean {
  return storableText(text) === text;
}

/** The text with each unstorable character replaced by U+FFFD, as a decoder does with an invalid byte. */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE, "\ufffd");
}

/** A JSON value with `storableText` applied to every string in it, keys included. */
export function storableJson<T>(value: T): T {
  if (typeof value === "string") return storableText(value) as T;
  if (Array.isArray(value)) return value.map(storableJson) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storableText(k), storableJson(v)])) as T;
  }
  return value;
}
