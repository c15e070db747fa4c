"use client";

import { useState } from "react";

function summary(value: object): string {
  return Array.isArray(value) ? `[…] ${value.length} item${value.length === 1 ? "" : "s"}` : `{…} ${Object.keys(value).length} key${Object.keys(value).length === 1 ? "" : "s"}`;
}

/** One value of a JSON tree: a leaf, or an object/array that opens and closes. */
export function JsonNode({ name, value, depth, openDepth }: { name?: string; value: unknown; depth: number; openDepth: number }) {
  const [open, setOpen] = useState(depth < openDepth);
  const label = name !== undefined ? <span className="json-key">{name}: </span> : null;
  if (value === null || typeof value !== "object") {
    const kind = value === null ? "null" : typeof value;
    return (
      <li className="json-leaf">
        {label}
        <span className={`json-${kind}`}>{typeof value === "string" ? JSON.stringify(value) : String(value)}</span>
      </li>
    );
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return (
    <li className="json-branch">
      <button type="button" className="json-toggle" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <span className="json-caret" aria-hidden="true">
          {open ? "▾" : "▸"}
        </span>
        {label}
        {open ? <span className="json-punct">{Array.isArray(value) ? "[" : "{"}</span> : <span className="json-summary">{summary(value)}</span>}
      </button>
      {open ? (
        <>
          <ul className="json-children">
            {entries.map(([k, v]) => (
              <JsonNode key={k} name={Array.isArray(value) ? undefined : k} value={v} depth={depth + 1} openDepth={openDepth} />
            ))}
          </ul>
          <span className="json-punct json-close">{Array.isArray(value) ? "]" : "}"}</span>
        </>
      ) : null}
    </li>
  );
}
