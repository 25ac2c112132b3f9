import { Hono, type Context } from "hono";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import { ConversationQuery } from "../../shared/admin/conversation-query.ts";
import type { SessionSummary } from "../../shared/session/session-summary.ts";
import type { AdminAnswer } from "../../shared/wire/admin-answers.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { toCsv } from "../console/csv.ts";
import { utcDay } from "../limits/site-ledger.ts";
import { reportSiteSpending } from "../limits/admission.ts";
import { eraseSession } from "../session/erase-session.ts";
import { redactedState, redactedSummary } from "../privacy/redact-state.ts";
import { siteLedger, sessionRoom, siteIndex } from "../objects.ts";

type AdminEnv = AppEnv & { Variables: { site: SiteConfig } };

/** The most rows one export holds (the newest first); narrow the filters for older ones. */
export const EXPORT_MAX = 10_000;
const DAY_MS = 86_400_000;

/**
 * The site's conversations for its owner (mounted behind the admin auth by admin.ts): the list
 * with filters and search, read from the site's index (no session is opened to list); exports of
 * the list and of one conversation; erasure; the insights.
 */
export const conversationAdminRoutes = new Hono<AdminEnv>();

function query(c: Context<AdminEnv>): ConversationQuery {
  const parsed = ConversationQuery.safeParse(c.req.query());
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  throw new ApiError(400, "validation_failed", `Invalid query: ${issues[0].path}: ${issues[0].message}`, { issues });
}

const download = (c: Context<AdminEnv>, name: string, format: "csv" | "json", body: string) =>
  c.body(body, 200, {
    "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
    "content-disposition": `attachment; filename="${name}.${format}"`,
    "cache-control": "no-store",
  });

conversationAdminRoutes.get(ROUTES.adminSessions, async (c) => {
  const q = query(c);
  const site = c.var.site;
  const limit = Math.min(Math.max(Number(q.limit) || 50, 1), 200);
  // This isolate's unreported spending first; other isolates' comes with their next refill of their slice.
  await reportSiteSpending().catch(() => undefined);
  const [sessions, spent] = await Promise.all([
    siteIndex(c.env, site).list(q, limit),
    siteLedger(c.env, site.siteKey).spent(utcDay()),
  ]);
  const body: AdminAnswer<"GET", typeof ROUTES.adminSessions> = {
    site: site.siteKey,
    agents: site.agents,
    sessions,
    tokensToday: { spent, budget: site.budgets.sitePerDay },
    ...(sessions.length === limit ? { next: sessions.at(-1)!.openedAt } : {}),
  };
  return c.json(body);
});

const SUMMARY_COLUMNS: Array<[string, (s: SessionSummary) => unknown]> = [
  ["session", (s) => s.sessionId],
  ["agent", (s) => s.agentId],
  ["opened", (s) => new Date(s.openedAt).toISOString()],
  ["last_activity", (s) => new Date(s.lastActivityAt).toISOString()],
  ["locale", (s) => s.locale],
  ["messages", (s) => s.messages],
  ["tokens", (s) => s.tokens],
  ["thumbs_up", (s) => s.feedbackUp],
  ["thumbs_down", (s) => s.feedbackDown],
  ["advice_cards", (s) => s.advice],
  ["escalated", (s) => s.escalated],
  ["interrupted", (s) => s.interrupted],
  ["quick_answers", (s) => s.quickAnswers],
  ["loop_answers", (s) => s.reactAnswers],
  ["handled_by", (s) => s.handledBy],
  ["first_message", (s) => s.firstText],
];

conversationAdminRoutes.get(ROUTES.adminSessionsExport, async (c) => {
  const q = query(c);
  const index = siteIndex(c.env, c.var.site);
  const rows: SessionSummary[] = [];
  // Pages of the index, newest first, until the filters run out or the export is full.
  for (let before = q.before; rows.length < EXPORT_MAX;) {
    const page = await index.list({ ...q, before }, 1000);
    rows.push(...page);
    if (page.length < 1000) break;
    before = String(page.at(-1)!.openedAt);
  }
  const format = q.format ?? "csv";
  // The variant for sharing: each first message redacted (redact-state.ts).
  const sessions = q.redacted ? rows.map(redactedSummary) : rows;
  const body =
    format === "csv"
      ? toCsv(
          SUMMARY_COLUMNS.map(([name]) => name),
          sessions.map((s) => SUMMARY_COLUMNS.map(([, get]) => get(s))),
        )
      : JSON.stringify({ site: c.var.site.siteKey, filters: q, sessions }, null, 2);
  return download(c, `conversations-${utcDay()}${q.redacted ? "-redacted" : ""}`, format, body);
});

/**
 * The session as its owner reads it (the trace with the owner's notes), when it belongs to the admin's
 * site; another site's session is not found (404).
 */
async function siteSession(c: Context<AdminEnv>) {
  const state = await sessionRoom(c.env, c.req.param("id") ?? "").ownerState();
  if (!state.sessionId || state.siteKey !== c.var.site.siteKey)
    throw new ApiError(404, "not_found", "No such session for this site");
  return state;
}

conversationAdminRoutes.get(ROUTES.adminSessionExport, async (c) => {
  const q = query(c);
  const format = q.format ?? "json";
  const stored = await siteSession(c);
  // The variant for sharing: the same conversation with its personal details replaced (redact-state.ts).
  const state = q.redacted ? redactedState(stored) : stored;
  const name = `conversation-${state.sessionId}${q.redacted ? "-redacted" : ""}`;
  if (format === "json") return download(c, name, format, JSON.stringify(state, null, 2));
  // The consent agreed, as rows of their own in time order among the messages (the JSON has it in the state).
  const agreed = Object.entries(state.consent ?? {})
    .flatMap(([kind, a]) => (a ? [{ at: a.at, text: `${kind} consent, version ${a.version}` }] : []))
    .sort((a, b) => a.at - b.at);
  const consentRow = (a: { at: number; text: string }) => [new Date(a.at).toISOString(), "consent", "", a.text, "", ""];
  const rows: unknown[][] = [];
  for (const m of state.messages) {
    while (agreed[0] && agreed[0].at <= m.at) rows.push(consentRow(agreed.shift()!));
    const fb = state.feedback?.[m.id];
    rows.push([new Date(m.at).toISOString(), m.role, m.status ?? "", m.content, fb?.rating ?? "", fb?.comment ?? ""]);
  }
  rows.push(...agreed.map(consentRow));
  return download(c, name, format, toCsv(["at", "role", "status", "content", "feedback", "comment"], rows));
});

/** Erasure (a visitor's right): the conversation's events, its index row, and what else it stored. */
conversationAdminRoutes.delete(ROUTES.adminSession, async (c) => {
  const id = c.req.param("id");
  const index = siteIndex(c.env, c.var.site);
  const [state, indexed] = await Promise.all([sessionRoom(c.env, id).getState(), index.has(id)]);
  const own = state.sessionId !== "" && state.siteKey === c.var.site.siteKey;
  if (!own && !indexed) throw new ApiError(404, "not_found", "No such session for this site");
  await eraseSession(c.env, c.var.site.siteKey, id);
  return c.body(null, 204);
});

/** Conversations their visitors erased from the widget: the id, who, when (nothing else of them is left). */
conversationAdminRoutes.get(ROUTES.adminErasures, async (c) => {
  c.header("cache-control", "no-store");
  const erasures = await siteIndex(c.env, c.var.site).listErasures();
  return c.json({ site: c.var.site.siteKey, erasures } satisfies AdminAnswer<"GET", typeof ROUTES.adminErasures>);
});

conversationAdminRoutes.get(ROUTES.adminInsights, async (c) => {
  const q = query(c);
  const to = Number(q.to) || Date.parse(`${utcDay()}T00:00:00Z`) + DAY_MS;
  const from = Number(q.from) || to - 14 * DAY_MS;
  if (from >= to || to - from > 366 * DAY_MS)
    throw new ApiError(400, "validation_failed", "Insights cover 1 to 366 days: from must be before to");
  const { rows, days } = await siteIndex(c.env, c.var.site).insights(from, to, q.agent);
  const budgetPerDay = c.var.site.budgets.sitePerDay;
  const body: AdminAnswer<"GET", typeof ROUTES.adminInsights> = {
    site: c.var.site.siteKey,
    from,
    to,
    budgetPerDay,
    agents: c.var.site.agents,
    rows,
    days,
  };
  return c.json(body);
});
