import { z } from "zod/mini";
import { createApp } from "./app.ts";
import { withDemo } from "./demo/index.ts";
import type { Env } from "./env.ts";
import { StrategyDesk as StrategyDeskObject } from "./strategy/strategy-desk.ts";
import { SessionRoom as SessionRoomObject } from "./session/session-room.ts";
import { WebhookOutbox as WebhookOutboxObject } from "./webhooks/webhook-outbox.ts";

// zod/mini ships without messages; the worker wants validation errors a developer can act on.
z.config(z.locales.en());

export { RateLimiter } from "./limits/rate-limiter.ts";
export { SiteLedger } from "./limits/site-ledger.ts";
export { SiteIndex } from "./site-index/site-index.ts";
export { SiteAccounts } from "./accounts/site-accounts.ts";
export { PromptRegistry } from "./prompts/prompt-registry.ts";

/**
 * The strategy desk reads site and agent configs and calls the model from its own alarm, outside a
 * request: it gets the demo's hooks here, at the entry point, like the app does.
 */
export class StrategyDesk extends StrategyDeskObject {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, withDemo(env));
  }
}

/** A session runs its streamed replies itself (live channel): in demo mode, with the demo model. */
export class SessionRoom extends SessionRoomObject {
  protected override providerEnv(): Env {
    return withDemo(super.providerEnv());
  }
}

/** Receivers on 127.0.0.1 are allowed in demo mode only: the outbox learns the mode here. */
export class WebhookOutbox extends WebhookOutboxObject {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, withDemo(env));
  }
}

const app = createApp();

// The one place the demo is wired in: with DEMO_MODE on, the app's env carries the demo's hooks.
export default {
  fetch: (req, env, ctx) => app.fetch(req, withDemo(env), ctx),
} satisfies ExportedHandler<Env>;
