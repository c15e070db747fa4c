"use client";

import { ErrorBox } from "~/components/ui/error-box";

/** Anything a page throws while rendering lands here instead of a blank screen. */
export default function PageError({ error, reset }: { error: Error; reset: () => void }) {
  return (
    <div className="center-note">
      <ErrorBox error={error} retry={reset} what="show this page" />
    </div>
  );
}
