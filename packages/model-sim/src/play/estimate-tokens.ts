/** A rough token count (about four characters a token) for steps that script no usage. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
