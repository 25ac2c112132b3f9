import type { Context } from "hono";
import type { SiteConfig } from "../../shared/agent-config.ts";
import type { SessionState } from "../../shared/session.ts";
import type { AppEnv, Claims } from "../env.ts";
import { ApiError } from "../errors.ts";
import { IsolateCache } from "../isolate-cache.ts";
import { sessionRoom } from "../session/session-stub.ts";
import { rateLimiter, type RateDecision } from "./rate-limiter.ts";
import { siteLedger, utcDay } from "./site-ledger.ts";

/** The client's address as Cloudflare reports it; local runs without the header share one key. */
export const clientIp = (c: Pick<Context<AppEnv>, "req">) => c.req.header("cf-connecting-ip") ?? "unknown";

const seconds = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));

function tooMany(who: string, perMinute: number, retryAfterMs: number): ApiError {
  return new ApiError(
    429,
    "rate_limited",
    `Too many requests ${who}: at most ${perMinute} a minute; retry in ${seconds(retryAfterMs)} s`,
    {},
    { "retry-after": seconds(retryAfterMs) },
  );
}

function ipRefusal(site: SiteConfig, d: RateDecision): ApiError | null {
  return d.ok ? null : tooMany("from your address", site.rateLimits.ipPerMinute, d.retryAfterMs);
}

/**
 * The site's tokens today, as this isolate last saw them: read from the SiteLedger at most once a
 * second and updated by this isolate's own spending, so the chat path skips one Durable Object
 * call on most requests. The cost: other isolates' last second of spending may be missed,
 * letting a site overshoot its daily budget by about that much.
 */
const spentCache = new IsolateCache<number>(1_000);

function cachedSiteSpent(c: Context<AppEnv>, siteKey: string, day: string): Promise<number> {
  return spentCache.through(`${siteKey}:${day}`, () => siteLedger(c.env, siteKey).spent(day));
}

/** Counts a completion's tokens into the site's day (after the reply; never on the way to the provider). */
export async function spendSiteTokens(
  env: AppEnv["Bindings"],
  siteKey: string,
  day: string,
  tokens: number,
): Promise<void> {
  const spent = await siteLedger(env, siteKey).add(day, tokens);
  spentCache.set(`${siteKey}:${day}`, spent);
}

/** Admin requests a minute per client IP: enough for a dashboard that pages, too few to guess keys. */
export const ADMIN_PER_MINUTE = 60;

/** Admin routes count every request, before the key is checked, so a wrong key costs as much as a right one. */
export async function admitAdmin(c: Pick<Context<AppEnv>, "req" | "env">): Promise<void> {
  const d = await rateLimiter(c.env, `admin:${clientIp(c)}`).hit(ADMIN_PER_MINUTE);
  if (!d.ok) throw tooMany("to admin routes from your address", ADMIN_PER_MINUTE, d.retryAfterMs);
}

/** Opening a session spends the client IP's rate only (the session does not exist yet). */
export async function admitSessionOpen(c: Context<AppEnv>, site: SiteConfig): Promise<void> {
  const refusal = ipRefusal(
    site,
    await rateLimiter(c.env, `ip:${site.siteKey}:${clientIp(c)}`).hit(site.rateLimits.ipPerMinute),
  );
  if (refusal) throw refusal;
}

/**
 * The limits a request to the provider (or to an edge tool) must pass, checked before it is sent
 * and before anything is stored: the IP's and the session's rate, the session's and (for the
 * provider) the site's token budget. Independent Durable Objects, asked in parallel: one round trip.
 * With `withState`, the session's state as the admission saw it is the answer.
 */
export async function admitTurn(
  c: Context<AppEnv>,
  site: SiteConfig,
  claims: Claims,
  spendsTokens: boolean,
  withState = false,
): Promise<SessionState | undefined> {
  const { rateLimits, budgets } = site;
  const day = utcDay();
  const [ip, session, siteSpent] = await Promise.all([
    rateLimiter(c.env, `ip:${site.siteKey}:${clientIp(c)}`).hit(rateLimits.ipPerMinute),
    sessionRoom(c.env, claims.sid).admit(
      rateLimits.sessionPerMinute,
      spendsTokens ? budgets.perSession : Number.MAX_SAFE_INTEGER,
      withState,
    ),
    spendsTokens ? cachedSiteSpent(c, site.siteKey, day) : 0,
  ]);
  if (!session.ok && session.reason === "unknown_session")
    throw new ApiError(404, "not_found", "Session not found; open a new session");
  const refusal = ipRefusal(site, ip);
  if (refusal) throw refusal;
  if (!session.ok && session.reason === "rate")
    throw tooMany("in this conversation", rateLimits.sessionPerMinute, session.retryAfterMs);
  if (spendsTokens && siteSpent >= budgets.sitePerDay) {
    const untilMidnight = Date.parse(`${day}T00:00:00Z`) + 86_400_000 - Date.now();
    throw new ApiError(
      429,
      "budget_exceeded",
      "This site has used its token budget for today; it starts afresh at 00:00 UTC",
      {},
      { "retry-after": seconds(untilMidnight) },
    );
  }
  if (!session.ok && session.reason === "budget") {
    throw new ApiError(
      429,
      "budget_exceeded",
      `This conversation has used its token budget ` +
        `(${session.usage} of ${budgets.perSession} tokens); start a ` +
        `new conversation to go on`,
    );
  }
  return session.ok ? session.state : undefined;
}
