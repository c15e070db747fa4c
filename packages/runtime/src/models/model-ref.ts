export type Provider = "openai-compatible" | "openai" | "anthropic" | "sim";

export interface ModelRef {
  provider: Provider;
  model: string;
}

/** `provider:model`, e.g. `openai-compatible:qwen3-coder` or `sim:demo`. */
export function parseModelRef(ref: string): ModelRef {
  const i = ref.indexOf(":");
  const provider = ref.slice(0, i);
  const model = ref.slice(i + 1);
  if (i <= 0 || !model || !["openai-compatible", "openai", "anthropic", "sim"].includes(provider)) {
    throw new Error(`model "${ref}" must be provider:model with provider openai-compatible, openai, anthropic or sim`);
  }
  return { provider: provider as Provider, model };
}
