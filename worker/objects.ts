import type { SiteConfig } from "../shared/config/agent-config.ts";
import type { Env } from "./env.ts";
import { jurisdictionOf, placed } from "./placement/jurisdiction.ts";

/**
 * The stubs of the worker's Durable Objects, by what names each one: beside env.ts, which declares
 * their namespaces, so a caller reaches an object without importing its class's module (and what
 * that module imports).
 */

/**
 * The SessionRoom of a session id (minted by POST /v1/sessions: placement/jurisdiction.ts). The id names
 * its jurisdiction, if its site chose one, so every route reaches the object where it was created.
 */
export function sessionRoom(env: Env, sessionId: string) {
  const ns = placed(env, env.SESSION_ROOM, jurisdictionOf(sessionId));
  return ns.get(ns.idFromName(sessionId));
}

/** One per rate-limit key (a client IP on a site, or on the admin routes). */
export function rateLimiter(env: Env, key: string) {
  return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key));
}

/** The site's daily token counters. */
export function siteLedger(env: Env, siteKey: string) {
  return env.SITE_LEDGER.get(env.SITE_LEDGER.idFromName(siteKey));
}

/**
 * The site's index, in its jurisdiction (if it chose one) like its conversations: the site's config
 * carries it, and a conversation's id names it (placement/jurisdiction.ts).
 */
export function siteIndex(env: Env, site: Pick<SiteConfig, "siteKey" | "jurisdiction">) {
  const ns = placed(env, env.SITE_INDEX, site.jurisdiction);
  return ns.get(ns.idFromName(site.siteKey));
}

/** The site's accounts, passkeys, keys, console sessions and audit trail. */
export function siteAccounts(env: Env, siteKey: string) {
  return env.SITE_ACCOUNTS.get(env.SITE_ACCOUNTS.idFromName(siteKey));
}

/** The site's prompts, their versions, labels and label history. */
export function promptRegistry(env: Env, siteKey: string) {
  return env.PROMPT_REGISTRY.get(env.PROMPT_REGISTRY.idFromName(siteKey));
}

/** An agent's desk, in its site's jurisdiction (if it chose one): its queue quotes the site's conversations. */
export function strategyDesk(env: Env, site: Pick<SiteConfig, "siteKey" | "jurisdiction">, agentId: string) {
  const ns = placed(env, env.STRATEGY_DESK, site.jurisdiction);
  return ns.get(ns.idFromName(`${site.siteKey}\n${agentId}`));
}

/** The site's webhook endpoints and the outbox of their deliveries. */
export function webhookOutbox(env: Env, siteKey: string) {
  return env.WEBHOOK_OUTBOX.get(env.WEBHOOK_OUTBOX.idFromName(siteKey));
}
