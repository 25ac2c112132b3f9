import { HASHED_FIELDS } from "../accounts/audit-chain.ts";
import { Hono, type Context } from "hono";
import { AuditQuery, type AuditEntry } from "../../shared/admin/audit.ts";
import { FRESH_AUTH_MS } from "../../shared/admin/roles.ts";
import type { AdminAnswer } from "../../shared/wire/admin-answers.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { ApiError } from "../errors.ts";
import type { AdminEnv } from "../middleware/admin-key.ts";
import { toCsv } from "../console/csv.ts";
import { actorRef, auditRequest } from "../audit/record-audit.ts";
import { siteAccounts } from "../objects.ts";

/** The most entries one export holds (the newest first); narrow the filters for older ones. */
export const AUDIT_EXPORT_MAX = 50_000;

/**
 * The audit trail for owners: entries filtered by person, action, object and time (newest first,
 * paged by seq), the same as a CSV or JSON file (`?format=`; the export is itself an entry), and the
 * chain's check, which names the first broken link. Mounted behind the admin middleware.
 */
export const auditAdminRoutes = new Hono<AdminEnv>();

function query(c: Context<AdminEnv>) {
  const parsed = AuditQuery.safeParse(c.req.query());
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  throw new ApiError(400, "validation_failed", `Invalid query: ${issues[0].path}: ${issues[0].message}`, { issues });
}

const COLUMNS: Array<keyof AuditEntry> = [...HASHED_FIELDS, "hash"];

auditAdminRoutes.get(ROUTES.adminAudit, async (c) => {
  const q = query(c);
  const store = siteAccounts(c.env, c.var.site.siteKey);
  const filter = {
    who: q.who || undefined,
    action: q.action,
    object: q.object || undefined,
    from: q.from ? Number(q.from) : undefined,
    to: q.to ? Number(q.to) : undefined,
    before: q.before ? Number(q.before) : undefined,
  };
  c.header("cache-control", "no-store");
  if (!q.format) {
    const limit = Math.min(Math.max(Number(q.limit) || 100, 1), 500);
    const entries = await store.auditList(filter, limit);
    const page = { entries, ...(entries.length === limit ? { next: entries.at(-1)!.seq } : {}) };
    return c.json(page satisfies AdminAnswer<"GET", typeof ROUTES.adminAudit>);
  }
  if (Date.now() - c.var.actor.authAt > FRESH_AUTH_MS)
    throw new ApiError(403, "reauth_required", "Sign in again (a passkey, or the admin key) to export the audit trail");
  const rows: AuditEntry[] = [];
  for (let before = filter.before; rows.length < AUDIT_EXPORT_MAX;) {
    const page = await store.auditList({ ...filter, before }, 1000);
    rows.push(...page);
    if (page.length < 1000) break;
    before = page.at(-1)!.seq;
  }
  // Exporting the trail is itself recorded, after the rows it exports.
  await auditRequest(c, c.var.site.siteKey, { actor: actorRef(c.var.actor), action: "audit.export", object: q.format });
  const body =
    q.format === "csv"
      ? toCsv(
          COLUMNS,
          rows.map((e) => COLUMNS.map((k) => (k === "at" ? new Date(e.at).toISOString() : e[k]))),
        )
      : JSON.stringify({ site: c.var.site.siteKey, filters: q, entries: rows }, null, 2);
  return c.body(body, 200, {
    "content-type": q.format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
    "content-disposition": `attachment; filename="audit-${new Date().toISOString().slice(0, 10)}.${q.format}"`,
  });
});

auditAdminRoutes.get(ROUTES.adminAuditVerify, async (c) => {
  c.header("cache-control", "no-store");
  return c.json(
    (await siteAccounts(c.env, c.var.site.siteKey).auditVerify()) satisfies AdminAnswer<
      "GET",
      typeof ROUTES.adminAuditVerify
    >,
  );
});
