"use client";

import { useServiceDefaults } from "./service-defaults";

/**
 * Says plainly when what runs is model-sim's scripted demonstration rather than a model.
 * `model` is an agent's own model; null means the service default.
 */
export function SimNotice({ model }: { model: string | null | undefined }) {
  const { defaultModel } = useServiceDefaults();
  const effective = model ?? defaultModel;
  if (!effective.startsWith("sim:")) return null;
  const demo = effective === "sim:demo";
  return (
    <p className="sim-notice" role="note">
      <strong>Model: {effective}</strong> —{" "}
      {demo
        ? "a scripted demonstration played by model-sim, not a real model. Replies are canned. Set HANDOFF_MODEL (or a profile's model) to do real work."
        : `model-sim playing the built-in scenario “${effective.slice(4)}”, not a real model.`}
    </p>
  );
}
