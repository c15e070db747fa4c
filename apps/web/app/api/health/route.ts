import { db } from "~/db";

export const dynamic = "force-dynamic";

/** Liveness and database reachability, for `npm start`, load balancers and tests. */
export async function GET() {
  try {
    await db().sql`SELECT 1`;
    return Response.json({ ok: true, db: "up" });
  } catch (e) {
    return Response.json({ ok: false, db: "down", error: (e as Error).message }, { status: 503 });
  }
}
