import { z } from "zod/mini";
import { LocalizedText } from "./localized-text.ts";
import { StageConfig } from "./stage-config.ts";
import { ModelRef, ProviderProfile } from "./provider-config.ts";
import { AgentGuards, SiteSafety } from "./guard-config.ts";
import { PhotoConfig } from "./photo-config.ts";
import { SiteBooking } from "./booking-config.ts";
import { ConsentConfig, type ConsentNotice } from "../session/consent.ts";
import { McpServerConfig } from "./mcp-config.ts";
import { SsoConfig } from "./sso-config.ts";
import { DEFAULT_MAX_WAIT_MINUTES, TakeoverSettings } from "./takeover-config.ts";

export const STRATEGIES = ["native", "text-react", "hybrid"] as const;

/**
 * The medical Q&A desk's router: simple intents take the quick path (retrieval in parallel, then one streamed
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
  /**
   * The two texts the strategy desk edits: how the agent leads a conversation, and the
   * checklist it follows before each reply. Version 1 of the registry's `<agent>/strategies` and
   * `<agent>/guidance`; the registry's production versions are what the chat path sends.
   */
  strategies: z._default(z.string(), ""),
  guidance: z._default(z.string(), ""),
  /** Visitor messages the strategy desk replays before a candidate prompt may be promoted. */
  evalCases: z._default(z.array(z.string().check(z.maxLength(2000))).check(z.maxLength(20)), []),
  model: z.string(),
  /** The site's provider profile that serves `model` (see provider-config.ts); default: the site's first. */
  provider: z.optional(z.string()),
  strategy: z._default(z.enum(STRATEGIES), "native"),
  maxTokens: z._default(z.int().check(z.positive()), 1024),
  tools: z._default(z.array(z.string()), []),
  /** Loop step limit: completions per visitor message. */
  maxSteps: z._default(z.int().check(z.gte(1), z.lte(20)), 6),
  router: z.optional(RouterConfig),
  /** A guided workflow (as the protocol designer's stage workflow): the stages in order; see stage-config.ts. */
  stages: z._default(z.array(StageConfig), []),
  guards: z._default(AgentGuards, { emergency: false, advice: false, compliance: false }),
  /** Visitors may attach photos (needs a model with `vision`); see photo-config.ts. */
  photos: z.optional(PhotoConfig),
  /** Booking in the chat: find_slots, book_slot and cancel_booking, when the site connects a calendar. */
  booking: z.optional(z.boolean()),
  /** Consent asked before this agent's first message; else the site's, if it has one (consent.ts). */
  consent: z.optional(ConsentConfig),
});
export type AgentConfig = z.infer<typeof AgentConfig>;
/** A config as written (defaults may be left out), e.g. in presets or KV. */
export type AgentConfigInput = z.input<typeof AgentConfig>;

/** What the widget receives about an agent: no system prompt, no stage instructions or rule prompts. */
export type PublicAgent = Omit<AgentConfig, "systemPrompt" | "strategies" | "guidance" | "evalCases" | "consent"> & {
  demo: boolean;
  /** The consent asked before the first message (the agent's, else the site's): the panel shows it first. */
  consent?: ConsentNotice;
  /** For an agent with the advice guard: the site's disclaimer, shown on every advice card. */
  disclaimer?: LocalizedText;
  /**
   * The site keeps nothing: the worker erases a conversation this many minutes after its last message,
   * and the page, while open, carries what it showed into the next conversation (session-store.ts).
   */
  keepNothingMinutes?: number;
};

/**
 * Requests per minute, per open session and per client IP (sliding window). Chat completions and
 * edge tool calls count; one visitor message may take several of each (the agent loop's steps).
 */
export const RateLimits = z.object({
  sessionPerMinute: z._default(z.int().check(z.positive()), 60),
  ipPerMinute: z._default(z.int().check(z.positive()), 120),
});
export type RateLimits = z.infer<typeof RateLimits>;

/** Provider tokens (prompt + completion, from the provider's usage) a site may spend. */
export const TokenBudgets = z.object({
  /** Per site per UTC day; the next day starts afresh. */
  sitePerDay: z._default(z.int().check(z.positive()), 2_000_000),
  /** Per session, for its whole life. */
  perSession: z._default(z.int().check(z.positive()), 100_000),
});
export type TokenBudgets = z.infer<typeof TokenBudgets>;

/** The strategy desk of each of the site's agents. */
export const DeskSettings = z.object({
  /** Quiet time after the newest request before a run starts; each request re-arms it. */
  debounceMs: z._default(z.int().check(z.gte(0), z.lte(86_400_000)), 60_000),
  /** Promote a candidate that passed review and the regression gate without the owner. */
  autoPromote: z._default(z.boolean(), false),
  /**
   * Even then, a run whose requests all came from visitors (thumbs-down comments, the agent's own
   * suggestions) is promoted by itself only when each complaint came from this many distinct
   * sessions; a note of the owner's among the requests is enough. Never fewer than 2.
   */
  visitorQuorum: z._default(z.int().check(z.gte(2), z.lte(1000)), 3),
  /** Provider tokens the desk may spend per UTC day (they count against `budgets.sitePerDay` too). */
  dailyTokens: z._default(z.int().check(z.positive()), 200_000),
});
export type DeskSettings = z.infer<typeof DeskSettings>;

/**
 * Where a site's conversations are kept, as Cloudflare offers: its conversations' objects, their photos and
 * the site's index are created in that jurisdiction and stay there. Unset: wherever Cloudflare places them.
 */
export const JURISDICTIONS = ["eu", "fedramp"] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];

export const SiteConfig = z.object({
  siteKey: z.string().check(z.minLength(8)),
  tenantId: z.string(),
  /** Exact origins (scheme://host[:port]) allowed to embed this site key. */
  allowedOrigins: z.array(z.string()),
  agents: z.array(z.string()),
  /** Models a request may name; empty: only the agent's own model. */
  models: z._default(z.array(z.string()), []),
  /** Caps every request's max_tokens, on top of the agent's own cap. */
  maxTokens: z.optional(z.int().check(z.positive())),
  rateLimits: z._default(RateLimits, { sessionPerMinute: 60, ipPerMinute: 120 }),
  budgets: z._default(TokenBudgets, { sitePerDay: 2_000_000, perSession: 100_000 }),
  /**
   * Hex SHA-256 of the site owner's admin key (sent as `x-parley-admin-key` to the admin routes).
   * Only the hash is stored; no admin key: the admin routes refuse this site.
   */
  adminKeySha256: z.optional(z.string().check(z.regex(/^[0-9a-f]{64}$/))),
  desk: z._default(DeskSettings, { debounceMs: 60_000, autoPromote: false, visitorQuorum: 3, dailyTokens: 200_000 }),
  /** Where the models are (none: the worker's LLM_BASE_URL, or the demo model). */
  providers: z._default(z.array(ProviderProfile), []),
  /** Tried in order when the agent's model answers a 429, a 5xx or nothing before its reply began. */
  fallbacks: z._default(z.array(ModelRef), []),
  /** Emergency contacts by region, the advice disclaimer, the optional guard classifier (guard-config.ts). */
  safety: z._default(SiteSafety, {}),
  /** Days a conversation is kept after its last activity; older sessions are purged (the owner's console sets it). */
  retentionDays: z._default(z.int().check(z.gte(1), z.lte(3650)), 90),
  /** Days an audit entry is kept: its own retention, apart from the conversations' (default 6 years). */
  auditRetentionDays: z._default(z.int().check(z.gte(1), z.lte(3650)), 2190),
  /** Minutes a console session may sit unused before it must sign in again. */
  consoleIdleMinutes: z._default(z.int().check(z.gte(5), z.lte(720)), 30),
  /** Handing conversations to a person from the site's staff (takeover-config.ts); off by default. */
  takeover: z._default(TakeoverSettings, { enabled: false, maxWaitMinutes: DEFAULT_MAX_WAIT_MINUTES }),
  /** The calendar visitors book in the chat (booking-config.ts); agents with `booking` use it. */
  booking: z.optional(SiteBooking),
  /**
   * E-mail addresses, phone numbers, identity and insurance numbers, birth dates and street addresses are
   * replaced by typed placeholders in what staff and logs read beside the transcript: trace steps, the
   * index's rows, the CRM webhook's note. New sites are created with it on; a site stored without it is off.
   */
  redactTraces: z.optional(z.boolean()),
  /**
   * Keep nothing: a conversation's object erases itself this many minutes after its last message (the
   * visitor's page keeps what it showed); the site's index keeps its counts only. Unset: `retentionDays`.
   */
  keepNothingMinutes: z.optional(z.int().check(z.gte(1), z.lte(1440))),
  /** Chosen when the site is created (data already stored cannot follow a change); see JURISDICTIONS. */
  jurisdiction: z.optional(z.enum(JURISDICTIONS)),
  /** Consent asked before the first message of any of the site's agents (an agent may have its own). */
  consent: z.optional(ConsentConfig),
  /** The owner's MCP servers (mcp-config.ts); an agent lists the tools it may use as `mcp__<server>__<tool>`. */
  mcpServers: z._default(z.array(McpServerConfig).check(z.maxLength(10)), []),
  /** Single sign-on for the console (sso-config.ts): set on Team by an owner, never the client secret itself. */
  sso: z.optional(SsoConfig),
});
export type SiteConfig = z.infer<typeof SiteConfig>;
/** A site config as written (defaults may be left out), e.g. in presets or KV. */
export type SiteConfigInput = z.input<typeof SiteConfig>;
