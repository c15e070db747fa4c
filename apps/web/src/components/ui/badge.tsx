import type { ReactNode } from "react";

export type Tone = "ok" | "bad" | "warn" | "info" | "neutral" | "violet" | "accent";

/** A small tinted label; the text always says the state, colour only helps. */
export function Badge({ tone = "neutral", children, title, pulse }: { tone?: Tone; children: ReactNode; title?: string; pulse?: boolean }) {
  return (
    <span className={`badge tone-${tone}${pulse ? " pulse" : ""}`} title={title}>
      {children}
    </span>
  );
}
