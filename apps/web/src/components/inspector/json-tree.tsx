"use client";

import { useState } from "react";
import { CopyButton } from "../ui/copy-button";
import { JsonNode } from "./json-node";

/** A collapsible view of a JSON value, with expand/collapse all and a copy of the exact JSON. */
export function JsonTree({
  value,
  openDepth = 2,
  label = "JSON value",
  compact = false,
}: {
  value: unknown;
  openDepth?: number;
  label?: string;
  /** Only the copy button, for small values inside a transcript. */
  compact?: boolean;
}) {
  const [depth, setDepth] = useState(openDepth);
  const [generation, setGeneration] = useState(0);
  const reset = (d: number) => {
    setDepth(d);
    setGeneration((g) => g + 1);
  };
  return (
    <div className="json-tree" data-testid="json-tree">
      <div className="json-tools">
        {compact ? null : (
          <>
            <button type="button" className="btn btn-small" onClick={() => reset(99)}>
              Expand all
            </button>
            <button type="button" className="btn btn-small" onClick={() => reset(1)}>
              Collapse all
            </button>
          </>
        )}
        <CopyButton text={JSON.stringify(value, null, 2)} label="Copy JSON" />
      </div>
      <ul className="json-root" aria-label={label} key={generation}>
        <JsonNode value={value} depth={0} openDepth={depth} />
      </ul>
    </div>
  );
}
