/** The cookie the dashboard signs in with (http-only, SameSite=Strict). */
export const AUTH_COOKIE = "handoff_token";

/**
 * The token a request presents: `Authorization: Bearer …` (SDK, CLI), the sign-in cookie
 * (dashboard), or the SSE connection params (a Node EventSource cannot set headers).
 */
export function requestToken(
  header: (name: string) => string | null | undefined,
  connectionParams: Record<string, unknown> | null | undefined,
): string | null {
  const authorization = header("authorization");
  if (authorization?.startsWith("Bearer ")) return authorization.slice(7).trim();
  const cookie = header("cookie");
  const fromCookie = cookie
    ?.split(";")
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${AUTH_COOKIE}=`))
    ?.slice(AUTH_COOKIE.length + 1);
  if (fromCookie) return decodeURIComponent(fromCookie);
  const param = connectionParams?.token;
  return typeof param === "string" ? param : null;
}
