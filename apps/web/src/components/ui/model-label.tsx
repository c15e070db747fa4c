"use client";

import { useServiceDefaults } from "./service-defaults";

/** An agent's model as it runs: its own, or (null) the service default, said so. */
export function ModelLabel({ model, inherited = "service default" }: { model: string | null | undefined; inherited?: string }) {
  const { defaultModel } = useServiceDefaults();
  return (
    <span className="mono" title={model ? "set on this agent" : `none set: the ${inherited}`}>
      {model ?? defaultModel}
      {model ? null : <span className="muted"> ({inherited})</span>}
    </span>
  );
}
