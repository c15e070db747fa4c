import type { AnyTRPCRouter } from "@trpc/server";

/** The type of the procedure at a dotted path (`session.prompt` → "mutation"), or undefined for none. Procedures are flat at run time. */
export function procedureType(router: AnyTRPCRouter, path: string): string | undefined {
  return (router._def.procedures as unknown as Record<string, { _def: { type: string } } | undefined>)[path]?._def.type;
}
