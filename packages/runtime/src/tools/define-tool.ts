import { z } from "zod";
import { storableJson } from "@handoff/db";
import type { ToolContext } from "./tool-context";

/** An error the model can act on: its message becomes the tool result. */
export class ToolError extends Error {
  override readonly name = "ToolError";
}

export interface ToolResult {
  /** What the model sees: text, or a JSON value. */
  output: string | Record<string, unknown> | unknown[];
  isError: boolean;
}

export interface ToolDefinition {
  id: string;
  description: string;
  /** The JSON Schema the model is shown (derived from the zod parameters). */
  inputSchema: Record<string, unknown>;
  /** Validates the raw arguments, runs the tool, bounds its output; never throws for the model's mistakes. */
  run(args: unknown, ctx: ToolContext): Promise<ToolResult>;
}

/**
 * The one way to define a tool: zod parameters checked before `execute`, errors turned into
 * results the model can act on, and output cut to the configured size.
 */
export function defineTool<P extends z.ZodType>(
  id: string,
  spec: {
    description: string;
    parameters: P;
    execute(args: z.output<P>, ctx: ToolContext): Promise<string | Record<string, unknown> | unknown[]>;
  },
): ToolDefinition {
  const inputSchema = z.toJSONSchema(spec.parameters, { io: "input" }) as Record<string, unknown>;
  delete inputSchema.$schema;
  return {
    id,
    description: spec.description,
    inputSchema,
    async run(args, ctx) {
      const parsed = spec.parameters.safeParse(args);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(arguments)"}: ${i.message}`).join("; ");
        return { output: `Invalid arguments for ${id}: ${issues}. Fix them and call ${id} again.`, isError: true };
      }
      try {
        return { output: bound(storable(await spec.execute(parsed.data, ctx)), ctx.maxOutputBytes), isError: false };
      } catch (e) {
        if (e instanceof ToolError) return { output: `${id} failed: ${e.message}`, isError: true };
        throw e;
      }
    },
  };
}

/**
 * Fix (property tests): a result is recorded as jsonb, which refuses NUL and unpaired
 * surrogates — a binary file read or grepped would leave its call unrecordable, and the
 * session retrying it forever. Both become U+FFFD, as any invalid byte of the file already does.
 */
function storable(output: string | Record<string, unknown> | unknown[]) {
  return storableJson(typeof output === "string" ? output : (JSON.parse(JSON.stringify(output)) as typeof output));
}

function bound(output: string | Record<string, unknown> | unknown[], maxBytes: number) {
  const text = typeof output === "string" ? output : JSON.stringify(output);
  if (Buffer.byteLength(text, "utf8") <= maxBytes) return output;
  const cut = Buffer.from(text, "utf8").subarray(0, maxBytes).toString("utf8");
  return `${cut}\n… [output cut at ${maxBytes} bytes; ask for less, e.g. a narrower path or a smaller range]`;
}
