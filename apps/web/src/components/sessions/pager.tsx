"use client";

/** Cursor pagination: the cursors of the pages behind are kept, so Previous is exact. */
export function Pager({ page, hasNext, onPrev, onNext }: { page: number; hasNext: boolean; onPrev: () => void; onNext: () => void }) {
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="btn" onClick={onPrev} disabled={page <= 1}>
        ← Newer
      </button>
      <span className="muted">Page {page}</span>
      <button type="button" className="btn" onClick={onNext} disabled={!hasNext}>
        Older →
      </button>
    </nav>
  );
}
