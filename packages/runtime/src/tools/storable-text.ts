/** What Postgres cannot store: NUL (text and jsonb refuse it) and unpaired surrogates (jsonb refuses them). */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The text with each unstorable character replaced by U+FFFD, as a decoder does with an invalid byte. */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE, "\ufffd");
}
