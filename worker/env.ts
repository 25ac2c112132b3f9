import type { TokenClaims } from "../shared/session/token.ts";
import type { DemoHooks } from "./demo-hooks.ts";
import type { SessionRoom } from "./session/session-room.ts";
import type { RateLimiter } from "./limits/rate-limiter.ts";
import type { SiteLedger } from "./limits/site-ledger.ts";
import type { SiteIndex } from "./site-index/site-index.ts";
import type { SiteAccounts } from "./accounts/site-accounts.ts";
import type { PromptRegistry } from "./prompts/prompt-registry.ts";
import type { WebhookOutbox } from "./webhooks/webhook-outbox.ts";
import type { StrategyDesk } from "./strategy/strategy-desk.ts";

export interface Env {
  SESSION_ROOM: DurableObjectNamespace<SessionRoom>;
  /** One per rate-limit key (client IP on a site). */
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  /** One per site: daily token counters. */
  SITE_LEDGER: DurableObjectNamespace<SiteLedger>;
  /** One per site: the index of its conversations (summaries, steps, retention). */
  SITE_INDEX: DurableObjectNamespace<SiteIndex>;
  /** One per site: its accounts, passkeys, invitations, admin keys, console sessions and audit trail. */
  SITE_ACCOUNTS: DurableObjectNamespace<SiteAccounts>;
  /** One per site: its agents' and its strategy desk's prompts, versions, labels and label history. */
  PROMPT_REGISTRY: DurableObjectNamespace<PromptRegistry>;
  /** One per site and agent: the strategy desk's queue, alarm and runs. */
  STRATEGY_DESK: DurableObjectNamespace<StrategyDesk>;
  /** One per site: its webhook endpoints, their secrets and the outbox of deliveries. */
  WEBHOOK_OUTBOX: DurableObjectNamespace<WebhookOutbox>;
  CONFIG: KVNamespace;
  /** Visitors' photos, under their site and session; never public. */
  PHOTOS: R2Bucket;
  /** The same for sites whose conversations are kept in the EU or FedRAMP jurisdiction (placement/photo-bucket.ts). */
  PHOTOS_EU?: R2Bucket;
  PHOTOS_FEDRAMP?: R2Bucket;
  /**
   * Local only ("1": the worker tests, npm start): workerd does not implement Durable Object jurisdictions,
   * so a jurisdiction's objects are named apart in the local namespace instead (placement/jurisdiction.ts).
   */
  JURISDICTION_STAND_IN?: string;
  ASSETS: Fetcher;
  /** OpenAI-compatible base URL (…/v1). Empty: 503 provider_not_configured, or the demo model in demo mode. */
  LLM_BASE_URL?: string;
  LLM_API_KEY?: string;
  /** Per attempt: ms to wait for the provider's first byte (default 30 000 streamed, 60 000 not). */
  LLM_TIMEOUT_MS?: string;
  /** Tavily key for web_search; without it fixture results stand in. */
  TAVILY_API_KEY?: string;
  /** ms an edge tool may take before the route answers 504 tool_failed (default 15 000). */
  TOOL_TIMEOUT_MS?: string;
  /** ms a webhook receiver has to answer one attempt (default 10 000). */
  WEBHOOK_TIMEOUT_MS?: string;
  /** Multiplies the webhook retry schedule (default 1: 24 h); tests shrink it. */
  WEBHOOK_RETRY_SCALE?: string;
  /**
   * DNS over HTTPS (JSON) resolver asked for the addresses of a site's webhook, MCP and calendar hosts before
   * each request (default Cloudflare's; demo mode resolves nothing unless this is set).
   */
  DNS_RESOLVER_URL?: string;
  /** HMAC key for session tokens. */
  SESSION_SECRET?: string;
  /** "1" or "true": presets, the demo site and the demo model are served (npm start, e2e tests). Never deployed. */
  DEMO_MODE?: string;
  DEMO_CHUNK_MS?: string;
  /** Demo mode: ms each strategy-desk completion of the scripted model takes (bench:desk uses 400). */
  DEMO_COMPLETION_MS?: string;
  /** Set by the entry point in demo mode (not a binding): see demo-hooks.ts. */
  demo?: DemoHooks;
}

export type Claims = TokenClaims;

/** Hono generics for this app: bindings and per-request variables set by middleware. */
export interface AppEnv {
  Bindings: Env;
  Variables: { claims: Claims };
}
