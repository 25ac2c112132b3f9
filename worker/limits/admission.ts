import type { Context } from "hono";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import type { SessionState } from "../../shared/session/session.ts";
import type { AppEnv, Claims } from "../env.ts";
import { ApiError } from "../errors.ts";
import type { Admission, ConsentVersions } from "../session/admission-check.ts";
import type { ConsentNotice } from "../../shared/session/consent.ts";
import { consentRequired } from "../config/consent-notice.ts";
import type { TurnIds } from "../session/message-ids.ts";
import { BudgetLeases, type Reservation } from "./budget-lease.ts";
import { RateLeases } from "./rate-lease.ts";
import type { RateDecision } from "./rate-limiter.ts";
import { utcDay } from "./site-ledger.ts";
import { sessionRoom, rateLimiter, siteLedger } from "../objects.ts";

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
 * This isolate's slices of the IP rate windows and of the sites' daily budgets: the chat path spends
 * them without a call to the client IP's or the site's object (rate-lease.ts, budget-lease.ts).
 */
let ipLeases: RateLeases | undefined;
let budgetLeases: BudgetLeases | undefined;

function leasesFor(env: AppEnv["Bindings"]) {
  // The stubs need an env; the Durable Objects behind them are the same for every request.
  ipLeases ??= new RateLeases((key, limit, want) => rateLimiter(env, key).lease(limit, want));
  budgetLeases ??= new BudgetLeases((siteKey, day, budget, want, report) =>
    siteLedger(env, siteKey).lease(day, budget, want, report),
  );
  return { ipLeases, budgetLeases };
}

/** Reports this isolate's spending to the sites' ledgers now (tests and benches read the ledger). */
export async function reportSiteSpending(): Promise<void> {
  await budgetLeases?.flush();
}

/** Forget this isolate's slices (tests that rewrite a site's limits). */
export function clearLeases(): void {
  ipLeases?.clear();
  budgetLeases?.clear();
}

/** Counts the strategy desk's tokens into the site's day (off the chat path: once per run). */
export async function spendSiteTokens(
  env: AppEnv["Bindings"],
  siteKey: string,
  day: string,
  tokens: number,
): Promise<void> {
  await siteLedger(env, siteKey).add(day, tokens);
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

function siteBudgetRefusal(day: string): ApiError {
  const untilMidnight = Date.parse(`${day}T00:00:00Z`) + 86_400_000 - Date.now();
  return new ApiError(
    429,
    "budget_exceeded",
    "This site has used its token budget for today; it starts afresh at 00:00 UTC",
    {},
    { "retry-after": seconds(untilMidnight) },
  );
}

/** A turn's hold on the site's budget: settled with the tokens it spent once its usage is known. */
export type TurnReservation = Reservation & { day: string };

/**
 * The checks this isolate can make alone: the client IP's rate and the site's daily budget, from
 * this isolate's slices (a Durable Object call only when a slice is empty). `reserve` is what the
 * turn may cost at most (0 for a route that spends no tokens). Refusals throw.
 */
export async function admitLocally(
  c: Context<AppEnv>,
  site: SiteConfig,
  reserve: number,
): Promise<TurnReservation | null> {
  const { ipLeases, budgetLeases } = leasesFor(c.env);
  const background = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
  const day = utcDay();
  const [ip, budget] = await Promise.all([
    ipLeases.take(`ip:${site.siteKey}:${clientIp(c)}`, site.rateLimits.ipPerMinute, background),
    reserve > 0 ? budgetLeases.reserve(site.siteKey, day, site.budgets.sitePerDay, reserve, background) : null,
  ]);
  const refusal = ipRefusal(site, ip);
  if (refusal) {
    budget?.settle(0);
    throw refusal;
  }
  if (reserve > 0 && !budget) throw siteBudgetRefusal(day);
  return budget ? { ...budget, day } : null;
}

/**
 * The session's own limits (its rate and, for the provider, its token budget), in the one call to
 * the session's object. With `withState`, the session's state as the admission saw it is the answer.
 * `turn`: a chat turn's reply and message ids, checked to name new messages (message-ids.ts).
 */
export async function admitSession(
  c: Context<AppEnv>,
  site: SiteConfig,
  claims: Claims,
  spendsTokens: boolean,
  withState = false,
  turn?: TurnIds,
  consent: ConsentNotice[] = [],
): Promise<SessionState | undefined> {
  const { rateLimits, budgets } = site;
  const session = await sessionRoom(c.env, claims.sid).admit(
    rateLimits.sessionPerMinute,
    spendsTokens ? budgets.perSession : Number.MAX_SAFE_INTEGER,
    withState,
    // A turn that spends tokens is a model turn: refused while a person handles the conversation.
    spendsTokens,
    turn,
    consentVersions(consent),
  );
  if (session.ok) return session.state;
  throw sessionRefusal(site, session, consent);
}

/** The versions the session's object checks were agreed, by kind, of the notices a request needs. */
export function consentVersions(notices: readonly ConsentNotice[]): ConsentVersions | undefined {
  return notices.length ? Object.fromEntries(notices.map((n) => [n.kind, n.version])) : undefined;
}

/**
 * The session's object refused a turn: the error the route answers (also for a streamed turn, whose
 * limits the object checks as it starts the reply).
 */
export function sessionRefusal(
  site: SiteConfig,
  session: Exclude<Admission, { ok: true }>,
  consent: readonly ConsentNotice[] = [],
): ApiError {
  const { rateLimits, budgets } = site;
  if (session.reason === "consent") {
    const notice = consent.find((n) => n.kind === session.kind);
    return notice
      ? consentRequired(notice)
      : new ApiError(403, "consent_required", `The visitor's ${session.kind} consent comes first`);
  }
  if (session.reason === "ids")
    return new ApiError(session.refusal.status, session.refusal.code, session.refusal.message);
  if (session.reason === "unknown_session")
    return new ApiError(404, "not_found", "Session not found; open a new session");
  if (session.reason === "rate")
    return tooMany("in this conversation", rateLimits.sessionPerMinute, session.retryAfterMs);
  if (session.reason === "taken_over")
    return new ApiError(
      409,
      "taken_over",
      `${session.name} from the site's staff handles this conversation now: ` +
        `send the visitor's message to them (POST /v1/sessions/:id/messages), not to the model`,
    );
  return new ApiError(
    429,
    "budget_exceeded",
    `This conversation has used its token budget ` +
      `(${session.usage} of ${budgets.perSession} tokens); start a ` +
      `new conversation to go on`,
  );
}

/**
 * The limits a request to an edge tool or a session route must pass (no provider tokens): the
 * IP's rate from this isolate's slice and the session's rate (and, with `consent`, that the visitor agreed
 * to those notices' current versions), checked before anything is stored.
 */
export async function admitTurn(
  c: Context<AppEnv>,
  site: SiteConfig,
  claims: Claims,
  consent: ConsentNotice[] = [],
): Promise<void> {
  await firstRefusal([admitSession(c, site, claims, false, false, undefined, consent), admitLocally(c, site, 0)]);
}

/**
 * Waits for every check and throws the first refusal in the order given, whichever came back first:
 * an unknown session is a 404 whatever else the checks found.
 */
export async function firstRefusal<T extends unknown[]>(checks: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(checks);
  const order = (r: PromiseSettledResult<unknown>) =>
    r.status === "rejected" && r.reason instanceof ApiError && r.reason.status === 404 ? 0 : 1;
  const refused = settled.filter((r) => r.status === "rejected").sort((a, b) => order(a) - order(b))[0];
  if (refused) throw (refused as PromiseRejectedResult).reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as T;
}
