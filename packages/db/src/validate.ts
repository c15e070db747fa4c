import type { z } from "zod";
import { HandoffError } from "./errors";

/** Parses a boundary input, turning zod's issues into one INVALID_INPUT error naming each field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  const text = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
  throw new HandoffError("INVALID_INPUT", `invalid input: ${text}`, { issues });
}
