import { Badge, type Tone } from "./badge";

const TONES: Record<string, Tone> = { COMPLETE: "ok", INCOMPLETE: "bad", UNVERIFIABLE: "violet" };

/** C4's verdict; UNVERIFIABLE has its own colour, never folded into either side. */
export function VerdictBadge({ verdict, title }: { verdict: string | null | undefined; title?: string }) {
  if (!verdict) return null;
  return (
    <Badge tone={TONES[verdict] ?? "neutral"} title={title ?? `verdict ${verdict}`}>
      {verdict}
    </Badge>
  );
}
