/** Codes a caller can branch on; the API maps them to tRPC error codes. */
export type HandoffErrorCode =
  | "NOT_FOUND"
  | "INVALID_INPUT"
  | "PAYLOAD_TOO_LARGE"
  | "CONFLICT"
  | "FENCED"
  | "LIMIT_EXCEEDED";

/** An expected failure with a message meant for the person or program that caused it. */
export class HandoffError extends Error {
  override readonly name = "HandoffError";
  constructor(
    readonly code: HandoffErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function isHandoffError(e: unknown, code?: HandoffErrorCode): e is HandoffError {
  return e instanceof HandoffError && (code === undefined || e.code === code);
}
