import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createModelSim, getBuiltinScenario, type ModelSim } from "@handoff/model-sim";
import type { LanguageModel } from "ai";
import type { RuntimeEnv } from "../env";
import { parseModelRef } from "./model-ref";

/** Marker a caller sets in provider options to send `tool_choice: "none"` with no tools (C2's last request). */
export const TOOL_CHOICE_NONE = "handoff_tool_choice_none";

export interface ModelResolver {
  resolve(ref: string, options?: { baseUrl?: string | null }): Promise<LanguageModel>;
  /** Stops the in-process model-sim servers started for `sim:*` models. */
  close(): Promise<void>;
}

/**
 * Providers by `provider:model`. Keys come from the environment only. `sim:NAME` plays the
 * built-in scenario NAME on an in-process model-sim, reached over loopback HTTP like any
 * OpenAI-compatible server, so what it records is what a real provider would be sent.
 */
export function createModelResolver(env: RuntimeEnv): ModelResolver {
  const sims = new Map<string, Promise<ModelSim>>();
  // A provider's model object builds its response schemas when made, and zod compiles a
  // schema's parser on first use: made once per model and base URL, not once per turn.
  const models = new Map<string, Promise<LanguageModel>>();
  const simFor = (name: string) => {
    let sim = sims.get(name);
    if (!sim) {
      sim = createModelSim({ scenario: getBuiltinScenario(name) });
      sims.set(name, sim);
    }
    return sim;
  };
  const make = async (ref: string, options: { baseUrl?: string | null }): Promise<LanguageModel> => {
    const { provider, model } = parseModelRef(ref);
    switch (provider) {
      case "sim":
        return openAICompatible((await simFor(model)).url, undefined, model);
      case "openai-compatible": {
        const baseUrl = options.baseUrl ?? env.HANDOFF_BASE_URL;
        if (!baseUrl) throw new Error(`model ${ref} needs a base URL (--base-url or HANDOFF_BASE_URL)`);
        if (!env.HANDOFF_API_KEY && !isLoopback(baseUrl)) {
          throw new Error(`model ${ref} at ${baseUrl} needs HANDOFF_API_KEY (only loopback servers go without a key)`);
        }
        return openAICompatible(baseUrl, env.HANDOFF_API_KEY, model);
      }
      case "openai":
        if (!env.OPENAI_API_KEY) throw new Error(`model ${ref} needs OPENAI_API_KEY`);
        return openAICompatible(options.baseUrl ?? "https://api.openai.com/v1", env.OPENAI_API_KEY, model);
      case "anthropic":
        if (!env.ANTHROPIC_API_KEY) throw new Error(`model ${ref} needs ANTHROPIC_API_KEY`);
        return createAnthropic({ apiKey: env.ANTHROPIC_API_KEY, ...(options.baseUrl ? { baseURL: options.baseUrl } : {}) })(model);
    }
  };
  return {
    resolve(ref, options = {}) {
      const key = `${ref} ${options.baseUrl ?? ""}`;
      let made = models.get(key);
      if (!made) {
        made = make(ref, options);
        models.set(key, made);
        // A ref that cannot be resolved (a missing key) is not remembered.
        made.catch(() => models.delete(key));
      }
      return made;
    },
    async close() {
      models.clear();
      const all = [...sims.values()];
      sims.clear();
      await Promise.all(all.map(async (s) => (await s).close()));
    },
  };
}

function openAICompatible(baseURL: string, apiKey: string | undefined, model: string): LanguageModel {
  return createOpenAICompatible({
    name: "handoff",
    baseURL,
    apiKey,
    includeUsage: true,
    // The AI SDK drops tool_choice when no tools are passed; C2's last request wants both "no tools" and "none".
    transformRequestBody: (body) => {
      if (!(TOOL_CHOICE_NONE in body)) return body;
      const { [TOOL_CHOICE_NONE]: _marker, ...rest } = body;
      return { ...rest, tool_choice: "none" };
    },
  })(model);
}

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "::1" || host === "[::1]" || host.startsWith("127.");
}
