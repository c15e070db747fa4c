"use client";

import Link from "next/link";
import { errorMessage } from "~/lib/error-message";

/** What went wrong, in the server's words, with a way to try again (or to sign in). */
export function ErrorBox({ error, retry, what = "load this" }: { error: unknown; retry?: () => void; what?: string }) {
  const message = errorMessage(error);
  const code = (error as { data?: { code?: string } } | null)?.data?.code;
  return (
    <div className="error-box" role="alert">
      <strong>Could not {what}.</strong> <span>{message}</span>
      {code === "UNAUTHORIZED" ? (
        <Link href="/login" className="btn btn-small">
          Sign in
        </Link>
      ) : retry ? (
        <button type="button" className="btn btn-small" onClick={retry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}
