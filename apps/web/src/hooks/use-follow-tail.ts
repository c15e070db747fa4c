"use client";

import { useCallback, useLayoutEffect, useRef, useState } from "react";

/**
 * Keeps a scroll box pinned to its end while the person is there; scrolling up pauses
 * following (new rows are counted instead), and `jump` resumes it.
 */
export function useFollowTail(rowCount: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [following, setFollowing] = useState(true);
  const [unseen, setUnseen] = useState(0);
  const seenCount = useRef(rowCount);

  const onScroll = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < 16;
    setFollowing(atEnd);
    if (atEnd) setUnseen(0);
  }, []);

  useLayoutEffect(() => {
    const el = ref.current;
    const added = rowCount - seenCount.current;
    seenCount.current = rowCount;
    if (!el) return;
    if (following) el.scrollTop = el.scrollHeight;
    else if (added > 0) setUnseen((n) => n + added);
  }, [rowCount, following]);

  const jump = useCallback(() => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
    setFollowing(true);
    setUnseen(0);
  }, []);

  return { ref, following, unseen, onScroll, jump };
}
