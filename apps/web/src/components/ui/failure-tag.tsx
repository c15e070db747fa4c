/** The failure tag of an agent that did not reply (`max_tokens`, `no_reply`, `abandoned`, …). */
export function FailureTag({ tag }: { tag: string | null | undefined }) {
  if (!tag) return null;
  return (
    <span className="failure-tag" title="failure tag">
      <span aria-hidden="true">✕ </span>
      {tag}
    </span>
  );
}
