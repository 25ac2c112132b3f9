import { z } from "zod/mini";

/**
 * How a site reaches the models its owner picked. A profile names where the provider is, how it
 * wants its key, what extra body fields it needs and what each model can do. The key itself never
 * appears here: KV is not a secret store and configs are served to the widget in part, so the
 * profile names the worker secret (`wrangler secret put LLM_DEEPSEEK_KEY`) that holds it.
 */

/**
 * `bearer`: `Authorization: Bearer <key>`. `azure`: `api-key` header, deployment in the path.
 * `none`: local servers.
 */
export const AUTH_STYLES = ["bearer", "azure", "none"] as const;

/**
 * Whether a model's reasoning goes back to the provider in later requests. `tool-turns`: DeepSeek's
 * thinking mode refuses a request whose assistant tool-call turns lack their `reasoning_content`
 * (api-docs.deepseek.com/guides/thinking_mode#tool-calls; SaladDay/cc-switch-cli#170). `never`: the
 * default, as other providers ignore it or reject the unknown field.
 */
export const REASONING_REPLAY = ["never", "tool-turns"] as const;

const Json = z.record(z.string(), z.unknown());

export const ModelCapabilities = z.strictObject({
  /** Native function calling; without it an agent must use the `text-react` strategy. */
  tools: z._default(z.boolean(), true),
  /** Several tool calls in one reply; without it requests carry `parallel_tool_calls: false`. */
  parallelTools: z._default(z.boolean(), true),
  vision: z._default(z.boolean(), false),
  /** The model streams its thinking (shown to visitors collapsed, never as the answer). */
  reasoning: z._default(z.boolean(), false),
  jsonMode: z._default(z.boolean(), false),
  /** Azure: the deployment that serves this model (default: the model's name). */
  deployment: z.optional(z.string().check(z.regex(/^[A-Za-z0-9._-]{1,64}$/))),
  /** Body fields for this model only, over the provider's (e.g. `{ "enable_thinking": true }`). */
  extraBody: z._default(Json, {}),
});
export type ModelCapabilities = z.infer<typeof ModelCapabilities>;

export const ProviderProfile = z.strictObject({
  id: z.string().check(z.regex(/^[a-z0-9][a-z0-9-]{0,39}$/)),
  /** The OpenAI-compatible base, e.g. `https://api.deepseek.com/v1`; Azure: `https://NAME.openai.azure.com`. */
  baseUrl: z.string().check(z.regex(/^https?:\/\/[^\s/?#]+[^\s?#]*$/, "must be an http(s) URL without query")),
  auth: z._default(z.enum(AUTH_STYLES), "bearer"),
  /** The worker secret holding the key: `LLM_` … `KEY`, so a site config cannot name the session secret. */
  keyEnv: z.optional(
    z.string().check(z.regex(/^LLM_[A-Z0-9_]*KEY$/, "must look like LLM_…KEY (a worker secret's name)")),
  ),
  /** Azure's `api-version` query parameter. */
  apiVersion: z.optional(z.string().check(z.regex(/^[0-9a-z.-]{4,40}$/))),
  /** Body fields for every request to this provider. */
  extraBody: z._default(Json, {}),
  /** Ask for usage in the stream (`stream_options.include_usage`); off for servers that reject it. */
  streamUsage: z._default(z.boolean(), true),
  reasoningReplay: z._default(z.enum(REASONING_REPLAY), "never"),
  /** What each model can do; a model not listed gets the defaults (tools yes, reasoning no). */
  models: z._default(z.record(z.string(), ModelCapabilities), {}),
});
export type ProviderProfile = z.infer<typeof ProviderProfile>;
export type ProviderProfileInput = z.input<typeof ProviderProfile>;

/** A model at a provider: one entry of a site's fallback list. */
export const ModelRef = z.strictObject({ provider: z.string(), model: z.string().check(z.minLength(1)) });
export type ModelRef = z.infer<typeof ModelRef>;

export const DEFAULT_CAPABILITIES: ModelCapabilities = {
  tools: true,
  parallelTools: true,
  vision: false,
  reasoning: false,
  jsonMode: false,
  extraBody: {},
};

export function capabilitiesOf(profile: ProviderProfile | undefined, model: string): ModelCapabilities {
  return profile?.models[model] ?? DEFAULT_CAPABILITIES;
}
