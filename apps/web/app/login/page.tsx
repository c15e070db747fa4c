export const dynamic = "force-dynamic";

/** Sign-in with an API token; the token goes into an http-only cookie and is never shown again. */
export default async function LoginPage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const { error } = await searchParams;
  return (
    <section style={{ maxWidth: 420, margin: "8vh auto", padding: "0 1rem" }} aria-labelledby="sign-in">
      <h1 id="sign-in" style={{ fontSize: "1.4rem" }}>Sign in to Handoff</h1>
      <p>
        Paste an API token (<code>handoff token create --role viewer --workspace default</code>). Running locally,{" "}
        <code>npm start</code> prints a sign-in link with a local admin token.
      </p>
      <form method="post" action="/api/auth/login" style={{ display: "grid", gap: "0.6rem" }}>
        <label htmlFor="token">API token</label>
        <input id="token" name="token" type="password" autoComplete="off" required placeholder="hnd_…" autoFocus />
        {error ? (
          <p role="alert" style={{ color: "#c0392b", margin: 0 }}>
            That token is not valid, or it was revoked.
          </p>
        ) : null}
        <button type="submit">Sign in</button>
      </form>
    </section>
  );
}
