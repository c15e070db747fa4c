import {
  callProcedure,
  getErrorShape,
  getHTTPStatusCode,
  getTRPCErrorFromUnknown,
} from "@trpc/server/unstable-core-do-not-import";
import type { TRPCError } from "@trpc/server";
import { requestContext } from "../auth/request-context";
import { appRouter } from "../root";
import type { ServiceContext } from "../trpc";
import { procedureType } from "./procedure-type";

/** A POST to the API, as read off the wire: the procedure path(s), the query, the body and a header lookup. */
export interface PostedCall {
  /** What follows the endpoint: `session.prompt`, or `a,b` for a batch. */
  path: string;
  search: URLSearchParams;
  body: string;
  header(name: string): string | null | undefined;
}

export interface CallAnswer {
  status: number;
  json: string;
}

const config = appRouter._def._config;

/**
 * Answers POSTed mutations — a single call or an `httpBatchLink` batch — the way tRPC's fetch
 * adapter would, byte for byte, but without building a web Request and Response around them:
 * that wrapping cost more CPU than the procedure and its database round trip together (see
 * docs/decisions/0012). The procedures themselves run through tRPC (`callProcedure`), with
 * their middlewares — authorization, rate limit, error mapping — and input validation.
 *
 * Returns null for anything else (a query, a subscription, another content type, a body that
 * is not JSON): the caller hands those to tRPC's adapter, which answers them and their errors.
 */
export async function answerMutations(service: ServiceContext, call: PostedCall): Promise<CallAnswer | null> {
  const batch = isOnlyBatchParam(call.search);
  if (!isJson(call.header("content-type")) || call.header("trpc-accept") || batch === null) return null;
  const paths = batch ? call.path.split(",") : [call.path];
  if (!paths.every((p) => procedureType(appRouter, p) === "mutation")) return null;
  let body: unknown;
  try {
    body = JSON.parse(call.body);
  } catch {
    return null;
  }
  if (batch && (typeof body !== "object" || body === null || Array.isArray(body))) return null;
  const inputs = batch ? paths.map((_, i) => (body as Record<string, unknown>)[i]) : [body];
  const ctx = await requestContext(service, call.header, null);
  const results = await Promise.all(
    paths.map(async (path, i) => {
      try {
        const data = await callProcedure({
          router: appRouter,
          path,
          getRawInput: async () => inputs[i],
          ctx,
          type: "mutation",
          signal: undefined,
          batchIndex: i,
        });
        return { result: { data } };
      } catch (cause) {
        const error = getTRPCErrorFromUnknown(cause);
        return { error: getErrorShape({ config, ctx, error, input: inputs[i], path, type: "mutation" }) };
      }
    }),
  );
  const answer = batch ? results : results[0]!;
  return { status: getHTTPStatusCode(answer), json: JSON.stringify(answer) };
}

/** The answer to a POST refused before it was read: the error once per procedure of a batch, as tRPC would word it. */
export function refusedCall(call: Pick<PostedCall, "path" | "search">, error: TRPCError): CallAnswer {
  const batch = isOnlyBatchParam(call.search) === true;
  const paths = batch ? call.path.split(",") : [call.path];
  const shapes = paths.map((path) => ({
    error: getErrorShape({ config, ctx: undefined, error, input: undefined, path, type: "mutation" }),
  }));
  const answer = batch ? shapes : shapes[0]!;
  return { status: getHTTPStatusCode(answer), json: JSON.stringify(answer) };
}

function isJson(contentType: string | null | undefined): boolean {
  return contentType?.split(";", 1)[0]!.trim().toLowerCase() === "application/json";
}

/** True for `?batch=1`, false for no query, null for any other query (left to tRPC). */
function isOnlyBatchParam(search: URLSearchParams): boolean | null {
  const keys = [...search.keys()];
  if (keys.length === 0) return false;
  return keys.length === 1 && search.get("batch") === "1" ? true : null;
}
