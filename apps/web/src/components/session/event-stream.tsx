"use client";

import { useCallback, useMemo, useState } from "react";
import { useFollowTail } from "~/hooks/use-follow-tail";
import type { StreamState } from "~/hooks/use-session-events";
import { missingCount, type EventLog } from "~/lib/event-log";
import { shortId } from "~/lib/format";
import type { AgentNode } from "~/trpc/types";
import { EmptyState } from "../ui/empty-state";
import { EventFilters, type EventFilter } from "./event-filters";
import { EventRow } from "./event-row";

/** Rows kept on screen; older ones are a click away. */
const WINDOW = 1_500;

/**
 * The session's live event log. It follows the tail while the person is at the bottom and
 * stops when they scroll up (new rows are counted); filters by type and agent; any row
 * expands to its JSON.
 */
export function EventStream({ log, agents, state }: { log: EventLog; agents: AgentNode[]; state: StreamState }) {
  const [filter, setFilter] = useState<EventFilter>({ type: "", agent: "", deltas: true });
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const [showAll, setShowAll] = useState(false);

  const labels = useMemo(
    () => new Map(agents.map((a) => [a.id, a.parentId === null ? `root · ${a.profile}` : `${a.profile} ${shortId(a.id).slice(-6)}`])),
    [agents],
  );
  const types = useMemo(() => [...new Set(log.events.map((e) => e.type))].sort(), [log.events]);
  const filtered = useMemo(
    () =>
      log.events.filter(
        (e) =>
          (!filter.type || e.type === filter.type) &&
          (!filter.agent || e.agentId === filter.agent) &&
          (filter.deltas || e.type !== "text.delta"),
      ),
    [log.events, filter],
  );
  const visible = showAll ? filtered : filtered.slice(-WINDOW);
  const tail = useFollowTail(filtered.length);
  const toggle = useCallback(
    (seq: number) =>
      setOpen((current) => {
        const next = new Set(current);
        if (next.has(seq)) next.delete(seq);
        else next.add(seq);
        return next;
      }),
    [],
  );

  return (
    <section className="card event-card" aria-labelledby="events-title">
      <header className="card-head">
        <h2 id="events-title">Events</h2>
        <EventFilters
          value={filter}
          onChange={setFilter}
          types={types}
          agents={agents.map((a) => ({ id: a.id, label: labels.get(a.id) ?? a.id }))}
        />
        <div className="card-actions">
          <span className="small muted" data-testid="event-count">
            {filtered.length === log.events.length ? `${log.events.length} events` : `${filtered.length} of ${log.events.length} events`} · seq{" "}
            {log.lastSeq}
          </span>
          {missingCount(log) > 0 ? (
            <span className="badge tone-bad" title="rows are replayed from seq 1; some have not arrived">
              {missingCount(log)} missing
            </span>
          ) : null}
          {tail.following ? (
            <span className="following small" title="new events scroll into view">
              ● following
            </span>
          ) : (
            <button type="button" className="btn btn-small btn-primary" onClick={tail.jump}>
              Jump to latest{tail.unseen > 0 ? ` (${tail.unseen} new)` : ""}
            </button>
          )}
        </div>
      </header>
      <div className="event-scroll" ref={tail.ref} onScroll={tail.onScroll} tabIndex={0} aria-label="Event log">
        {filtered.length > visible.length ? (
          <button type="button" className="btn btn-small show-earlier" onClick={() => setShowAll(true)}>
            Show {filtered.length - visible.length} earlier events
          </button>
        ) : null}
        {visible.length === 0 ? (
          <EmptyState>{state === "connecting" ? "Connecting to the event stream…" : log.events.length ? "No event matches the filters." : "No events yet."}</EmptyState>
        ) : (
          <ol className="events">
            {visible.map((e) => (
              <EventRow
                key={e.seq}
                event={e}
                agentLabel={e.agentId ? (labels.get(e.agentId) ?? shortId(e.agentId)) : "session"}
                open={open.has(e.seq)}
                onToggle={toggle}
              />
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
