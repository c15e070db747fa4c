"use client";

import { memo } from "react";
import { eventFamily, summarizeEvent } from "~/lib/event-summary";
import { formatClock } from "~/lib/format";
import type { WireEvent } from "~/trpc/types";

/** One event: seq, time, type, agent and what it means; activating it shows the event's JSON. */
export const EventRow = memo(function EventRow({
  event,
  agentLabel,
  open,
  onToggle,
}: {
  event: WireEvent;
  agentLabel: string;
  open: boolean;
  onToggle: (seq: number) => void;
}) {
  return (
    <li className={`event fam-${eventFamily(event.type)}`} data-seq={event.seq} data-type={event.type}>
      <button type="button" className="event-line" aria-expanded={open} onClick={() => onToggle(event.seq)}>
        <span className="event-seq">{event.seq}</span>
        <span className="event-time">{formatClock(event.at)}</span>
        <span className="event-type">{event.type}</span>
        <span className="event-agent">{agentLabel}</span>
        <span className="event-summary">{summarizeEvent(event)}</span>
      </button>
      {open ? <pre className="event-json">{JSON.stringify(event, null, 2)}</pre> : null}
    </li>
  );
});
