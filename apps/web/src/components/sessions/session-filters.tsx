"use client";

export const STATUSES = ["running", "idle", "ended", "cancelled"] as const;
export const VERDICTS = ["COMPLETE", "INCOMPLETE", "UNVERIFIABLE", "NONE"] as const;

export interface Filters {
  status: (typeof STATUSES)[number][];
  verdict: (typeof VERDICTS)[number][];
  search: string;
}

function toggle<T>(list: T[], item: T): T[] {
  return list.includes(item) ? list.filter((x) => x !== item) : [...list, item];
}

/** Status and verdict toggles (none pressed = all) and a search by title or id. */
export function SessionFilters({ value, onChange }: { value: Filters; onChange: (f: Filters) => void }) {
  return (
    <div className="toolbar" role="search">
      <label className="field-inline">
        <span>Search</span>
        <input
          type="search"
          placeholder="title or ses_… id"
          value={value.search}
          onChange={(e) => onChange({ ...value, search: e.target.value })}
        />
      </label>
      <div className="chip-group" role="group" aria-label="Filter by status">
        <span className="chip-label">Status</span>
        {STATUSES.map((s) => (
          <button
            key={s}
            type="button"
            className="chip"
            aria-pressed={value.status.includes(s)}
            onClick={() => onChange({ ...value, status: toggle(value.status, s) })}
          >
            {s}
          </button>
        ))}
      </div>
      <div className="chip-group" role="group" aria-label="Filter by root verdict">
        <span className="chip-label">Verdict</span>
        {VERDICTS.map((v) => (
          <button
            key={v}
            type="button"
            className="chip"
            aria-pressed={value.verdict.includes(v)}
            onClick={() => onChange({ ...value, verdict: toggle(value.verdict, v) })}
          >
            {v === "NONE" ? "none yet" : v}
          </button>
        ))}
      </div>
    </div>
  );
}
