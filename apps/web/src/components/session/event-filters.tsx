"use client";

export interface EventFilter {
  type: string;
  agent: string;
  deltas: boolean;
}

/** By event type, by agent, and whether streamed text deltas show. */
export function EventFilters({
  value,
  onChange,
  types,
  agents,
}: {
  value: EventFilter;
  onChange: (f: EventFilter) => void;
  types: string[];
  agents: { id: string; label: string }[];
}) {
  return (
    <div className="toolbar toolbar-tight">
      <span className="field-inline small">
        <label htmlFor="event-type-filter">Type</label>
        <select id="event-type-filter" value={value.type} onChange={(e) => onChange({ ...value, type: e.target.value })}>
          <option value="">all types</option>
          {types.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </span>
      <span className="field-inline small">
        <label htmlFor="event-agent-filter">Agent</label>
        <select id="event-agent-filter" value={value.agent} onChange={(e) => onChange({ ...value, agent: e.target.value })}>
          <option value="">all agents</option>
          {agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.label}
            </option>
          ))}
        </select>
      </span>
      <label className="field-inline small">
        <input type="checkbox" checked={value.deltas} onChange={(e) => onChange({ ...value, deltas: e.target.checked })} />
        <span>text deltas</span>
      </label>
    </div>
  );
}
