import { AUTH_COOKIE } from "@handoff/api";
import { apiContext } from "~/api-context";

export const dynamic = "force-dynamic";

/** Cookie for a signed-in dashboard: http-only (scripts cannot read it), SameSite=Strict (no cross-site use). */
function cookie(token: string, req: Request): string {
  const secure = new URL(req.url).protocol === "https:" ? "; Secure" : "";
  return `${AUTH_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${30 * 24 * 3600}${secure}`;
}

async function signIn(token: string, req: Request, redirect: boolean): Promise<Response> {
  const identity = await (await apiContext()).tokens.verify(token.trim());
  if (!identity) {
    return redirect
      ? new Response(null, { status: 303, headers: { location: "/login?error=invalid" } })
      : Response.json({ ok: false, error: "invalid or revoked token" }, { status: 401 });
  }
  const headers = { "set-cookie": cookie(token.trim(), req) };
  return redirect
    ? new Response(null, { status: 303, headers: { ...headers, location: "/" } })
    : Response.json({ ok: true, role: identity.role, workspaceId: identity.workspaceId }, { headers });
}

/** `POST /api/auth/login` with `{ "token": "hnd_…" }` (JSON) or a form field `token`. */
export async function POST(req: Request) {
  const type = req.headers.get("content-type") ?? "";
  if (type.includes("application/json")) {
    const body = (await req.json().catch(() => null)) as { token?: unknown } | null;
    if (typeof body?.token !== "string") return Response.json({ ok: false, error: "send { token }" }, { status: 400 });
    return signIn(body.token, req, false);
  }
  const form = await req.formData().catch(() => null);
  const token = form?.get("token");
  if (typeof token !== "string") return Response.json({ ok: false, error: "send a token" }, { status: 400 });
  return signIn(token, req, true);
}

/** `GET /api/auth/login?token=…`: the sign-in link `npm start` prints in local mode. */
export async function GET(req: Request) {
  const token = new URL(req.url).searchParams.get("token");
  if (!token) return new Response(null, { status: 303, headers: { location: "/login" } });
  return signIn(token, req, true);
}
