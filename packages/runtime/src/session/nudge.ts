/** C1: the reminder a returning agent gets when a step ends without an accepted reply. */
export function nudgeText(rejected: boolean): string {
  return rejected
    ? "Your reply was rejected (see the tool result). Call the reply tool again with a value that fixes the problem."
    : "You ended your step without calling the reply tool. Your work is only returned through reply: " +
        "call reply now with your final result (a string, or a JSON object or array).";
}
