import { z } from "zod/mini";
import { LocalizedText } from "./localized-text.ts";
import { StageConfig } from "./stage-config.ts";

export { LOCALES, LocalizedText, localize, type Locale } from "./localized-text.ts";

export const STRATEGIES = ["native", "text-react", "hybrid"] as const;

/**
 * Seed 004's router: simple intents take the quick path (retrieval in parallel, then one streamed
 * completion); anything else, including an unsure classification, takes the agent loop.
 */
export const RouterConfig = z.object({
  intents: z.array(z.object({ id: z.string(), description: z.string() })).check(z.minLength(1)),
  quickIntents: z.array(z.string()),
  /** Below this confidence the loop is taken: the conservative default. */
  minConfidence: z._default(z.number().check(z.gte(0), z.lte(1)), 0.7),
  /** Edge tools run for the quick path. */
  quickTools: z._default(z.array(z.string()), ["knowledge_search", "web_search"]),
});
export type RouterConfig = z.infer<typeof RouterConfig>;

export const AgentConfig = z.object({
  id: z.string().check(z.regex(/^[a-z0-9][a-z0-9-]{0,63}$/)),
  name: LocalizedText,
  description: LocalizedText,
  greeting: LocalizedText,
  starters: z._default(z.array(LocalizedText), []),
  /** Kept on the worker: the visitor's browser never chooses the system prompt. */
  systemPrompt: z.string().check(z.minLength(1)),
  model: z.string(),
  strategy: z._default(z.enum(STRATEGIES), "native"),
  maxTokens: z._default(z.int().check(z.positive()), 1024),
  tools: z._default(z.array(z.string()), []),
  /** Loop step limit: completions per visitor message. */
  maxSteps: z._default(z.int().check(z.gte(1), z.lte(20)), 6),
  router: z.optional(RouterConfig),
  /** A guided workflow (seed 001): the stages in order; see stage-config.ts. */
  stages: z._default(z.array(StageConfig), []),
});
export type AgentConfig = z.infer<typeof AgentConfig>;
/** A config as written (defaults may be left out), e.g. in presets or KV. */
export type AgentConfigInput = z.input<typeof AgentConfig>;

/** What the widget receives about an agent: no system prompt, no stage instructions or rule prompts. */
export type PublicAgent = Omit<AgentConfig, "systemPrompt"> & { demo: boolean };

export const SiteConfig = z.object({
  siteKey: z.string().check(z.minLength(8)),
  tenantId: z.string(),
  /** Exact origins (scheme://host[:port]) allowed to embed this site key. */
  allowedOrigins: z.array(z.string()),
  agents: z.array(z.string()),
});
export type SiteConfig = z.infer<typeof SiteConfig>;
