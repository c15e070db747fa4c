import type { Profile } from "../profiles/profile";
import { builtinTools } from "../tools/builtin-tools";
import type { ToolDefinition } from "../tools/define-tool";

/**
 * The tools one request offers. C1: `reply` only to returning agents. C2: on the last
 * allowed request a returning agent is offered `reply` alone and any other agent nothing.
 */
export function offeredTools(profile: Profile, returning: boolean, capped: boolean): ToolDefinition[] {
  const reply = builtinTools.reply!;
  if (capped) return returning ? [reply] : [];
  const listed = profile.tools.map((name) => builtinTools[name]).filter((t): t is ToolDefinition => t !== undefined);
  return returning ? [...listed, reply] : listed;
}
