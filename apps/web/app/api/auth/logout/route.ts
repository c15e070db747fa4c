import { AUTH_COOKIE } from "@handoff/api";

export const dynamic = "force-dynamic";

/** Signs the dashboard out: the cookie is cleared. */
export async function POST() {
  return new Response(null, {
    status: 303,
    headers: { location: "/login", "set-cookie": `${AUTH_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0` },
  });
}
