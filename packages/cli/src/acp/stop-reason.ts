import type { StopReason } from "@agentclientprotocol/sdk";

/**
 * The ACP stop reason for the end of the turn that admitted a prompt (C5), or `null` for a
 * model error, which the bridge answers with a JSON-RPC error instead. The step cap is ACP's
 * "too many requests in one turn"; `reply`, `end_turn` and anything else end the turn normally.
 */
export function acpStopReason(handoffStopReason: string | null): StopReason | null {
  switch (handoffStopReason) {
    case "error":
      return null;
    case "max_tokens":
      return "max_tokens";
    case "step_cap":
      return "max_turn_requests";
    case "refusal":
      return "refusal";
    case "cancelled":
      return "cancelled";
    default:
      return "end_turn";
  }
}
