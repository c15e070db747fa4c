import type { IncomingMessage } from "node:http";

/** One request as the model service received it. */
export interface RecordedRequest {
  /** ISO time of arrival. */
  at: string;
  method: string;
  path: string;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The parsed JSON body; the raw text when it was not JSON; null when empty. */
  body: unknown;
}

/** Requests in arrival order. Readers get copies, so a test cannot edit the record. */
export class RequestLog {
  #entries: RecordedRequest[] = [];

  record(req: IncomingMessage, path: string, arrivedAt: Date, rawBody: string): void {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    this.#entries.push({ at: arrivedAt.toISOString(), method: req.method ?? "GET", path, headers, body: parseBody(rawBody) });
  }

  list(): RecordedRequest[] {
    return structuredClone(this.#entries);
  }

  clear(): void {
    this.#entries = [];
  }
}

function parseBody(raw: string): unknown {
  if (raw === "") return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
