import { TOKEN_PATTERN } from "./auth/tokens";

const secrets = new Set<string>();

/** Registers values that must never be written to events, transcripts or logs (provider keys, webhook secrets). */
export function registerSecrets(values: readonly (string | undefined | null)[]): void {
  for (const v of values) if (v && v.length >= 8) secrets.add(v);
}

/** Well-known key shapes, redacted even when nobody registered them. */
const KEY_PATTERNS = [TOKEN_PATTERN, /sk-ant-[A-Za-z0-9_-]{20,}/g, /sk-(?:proj-)?[A-Za-z0-9_-]{20,}/g];

/** Replaces every registered secret and every token or key-shaped string with `[redacted]`. */
export function redact(text: string): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join("[redacted]");
  for (const p of KEY_PATTERNS) out = out.replace(p, "[redacted]");
  return out;
}

/** `redact` over a JSON value: its serialized form is cleaned and parsed back. */
export function redactJson<T>(value: T): T {
  if (value === undefined) return value;
  const json = JSON.stringify(value);
  const clean = redact(json);
  return clean === json ? value : (JSON.parse(clean) as T);
}
