/**
 * An error as a person reads it. tRPC reports invalid input as the JSON of zod's issues;
 * those become "field: message" lines instead of a JSON dump.
 */
export function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (!message.trimStart().startsWith("[")) return message;
  try {
    const issues = JSON.parse(message) as { path?: (string | number)[]; message?: string }[];
    if (!Array.isArray(issues) || issues.length === 0) return message;
    return issues
      .map((i) => {
        const field = i.path?.join(".") ?? "";
        return field && !String(i.message).startsWith(field) ? `${field}: ${i.message}` : String(i.message);
      })
      .join("; ");
  } catch {
    return message;
  }
}
