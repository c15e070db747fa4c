import { requestToken } from "./request-token";
import type { ApiContext, ServiceContext } from "../trpc";

/** One request's context: the service's, and who the token it presents (header, cookie or connection params) belongs to. */
export async function requestContext(
  service: ServiceContext,
  header: (name: string) => string | null | undefined,
  connectionParams: Record<string, unknown> | null | undefined,
): Promise<ApiContext> {
  const token = requestToken(header, connectionParams);
  return { ...service, auth: token ? await service.tokens.verify(token) : null };
}
