import { Ajv, type ValidateFunction } from "ajv";
import { z } from "zod";
import { defineTool, ToolError } from "./define-tool";

export const ReplyValue = z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]);
export type ReplyValue = z.infer<typeof ReplyValue>;

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<string, ValidateFunction>();

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

/**
 * C1: the only way a returning agent returns. The value is taken as given — a string is
 * never parsed — and is rejected only for a wrong call shape (the zod parameters) or, when
 * the profile declares an output schema, for not conforming to it.
 */
export const replyTool = defineTool("reply", {
  description:
    "Return your final result to whoever asked for it. Call this exactly once, when the work is done: " +
    "value is a string (Markdown) or a JSON object or array. Your work ends after this call.",
  parameters: z.strictObject({
    value: ReplyValue.describe("The result: a string, or a JSON object or array"),
  }),
  async execute({ value }, ctx) {
    if (ctx.outputSchema) {
      const validate = validatorFor(ctx.outputSchema);
      if (!validate(value)) {
        const errors = (validate.errors ?? []).map((e) => `${e.instancePath || "(value)"} ${e.message}`).join("; ");
        throw new ToolError(`the value does not match the required output schema: ${errors}`);
      }
    }
    return "Reply accepted.";
  },
});
