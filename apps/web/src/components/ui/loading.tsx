/** Placeholder lines while data loads; announced once to screen readers. */
export function Loading({ lines = 3, label = "Loading…" }: { lines?: number; label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="sr-only">{label}</span>
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} className="skeleton" style={{ width: `${90 - ((i * 17) % 40)}%` }} />
      ))}
    </div>
  );
}
