import type { AuditAction } from "../admin/audit.ts";
import type { Permission } from "../admin/roles.ts";
import * as ROUTES from "./routes.ts";

/**
 * THE permission table: every admin and console route (method and pattern from routes.ts) with the
 * permission it needs (roles.ts says which roles have it), whether it asks for a fresh sign-in
 * (a passkey, or the admin key typed, within FRESH_AUTH_MS), and the audit action it records (the
 * object is the route's parameters, joined by "/"). The worker enforces it in one middleware
 * (worker/middleware/route-permission.ts); test/worker/route-permissions/ walks it for every role
 * (a file each) and route-permissions.test.ts fails for a route the app serves without an entry.
 * To add an admin route, add its line here.
 */
export interface RouteRule {
  need: Permission;
  fresh?: true;
  audit?: AuditAction;
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type RouteKey = `${Method} ${string}`;

const rule = (need: Permission, audit?: AuditAction, fresh?: true): RouteRule => ({
  need,
  ...(audit ? { audit } : {}),
  ...(fresh ? { fresh } : {}),
});

export const ROUTE_PERMISSIONS: Record<RouteKey, RouteRule> = {
  // Conversations: staff read them; owners export and erase them.
  [`GET ${ROUTES.adminSessions}`]: rule("conversations.read"),
  [`GET ${ROUTES.adminSession}`]: rule("conversations.read", "conversation.read"),
  [`DELETE ${ROUTES.adminSession}`]: rule("conversations.delete", "conversation.delete", true),
  [`GET ${ROUTES.adminPhoto}`]: rule("conversations.read", "photo.read"),
  [`GET ${ROUTES.adminTrace}`]: rule("conversations.read", "trace.read"),
  [`GET ${ROUTES.adminSessionExport}`]: rule("conversations.export", "conversation.export", true),
  [`GET ${ROUTES.adminSessionsExport}`]: rule("conversations.export", "conversations.export", true),
  [`GET ${ROUTES.adminInsights}`]: rule("insights"),
  // Conversations their visitors erased: ids and times only.
  [`GET ${ROUTES.adminErasures}`]: rule("conversations.read"),
  // Prompts, the strategy desk, agents, drafts, knowledge: editors.
  [`GET ${ROUTES.adminPrompts}`]: rule("prompts"),
  [`GET ${ROUTES.adminPrompt}`]: rule("prompts"),
  [`GET ${ROUTES.adminPromptVersion}`]: rule("prompts"),
  [`GET ${ROUTES.adminPromptDiff}`]: rule("prompts"),
  [`POST ${ROUTES.adminPromptVersions}`]: rule("prompts"),
  [`PUT ${ROUTES.adminPromptLabel}`]: rule("prompts", "prompt.label"),
  [`GET ${ROUTES.adminPromptHistory}`]: rule("prompts"),
  [`GET ${ROUTES.adminSystemPrompt}`]: rule("prompts"),
  [`GET ${ROUTES.adminDeskQueue}`]: rule("desk"),
  [`GET ${ROUTES.adminDeskRuns}`]: rule("desk"),
  [`GET ${ROUTES.adminDeskRunDetail}`]: rule("desk"),
  [`POST ${ROUTES.adminDeskNotes}`]: rule("desk"),
  [`POST ${ROUTES.adminDeskRun}`]: rule("desk"),
  [`POST ${ROUTES.adminDeskPromote}`]: rule("desk", "desk.promote"),
  [`POST ${ROUTES.adminDeskReject}`]: rule("desk", "desk.reject"),
  [`POST ${ROUTES.adminDeskRollback}`]: rule("desk", "desk.rollback"),
  [`GET ${ROUTES.adminTemplates}`]: rule("agents"),
  [`GET ${ROUTES.adminAgents}`]: rule("agents"),
  [`POST ${ROUTES.adminAgents}`]: rule("agents", "agent.create"),
  [`GET ${ROUTES.adminAgent}`]: rule("agents"),
  [`PUT ${ROUTES.adminAgent}`]: rule("agents", "agent.publish"),
  [`DELETE ${ROUTES.adminAgent}`]: rule("agents", "agent.delete"),
  [`GET ${ROUTES.adminAgentDraft}`]: rule("agents"),
  [`PUT ${ROUTES.adminAgentDraft}`]: rule("agents"),
  [`POST ${ROUTES.adminAgentDraftPublish}`]: rule("agents", "agent.publish"),
  [`GET ${ROUTES.adminKnowledge}`]: rule("knowledge"),
  [`POST ${ROUTES.adminKnowledge}`]: rule("knowledge"),
  [`GET ${ROUTES.adminKnowledgeDoc}`]: rule("knowledge"),
  [`PUT ${ROUTES.adminKnowledgeDoc}`]: rule("knowledge"),
  [`DELETE ${ROUTES.adminKnowledgeDoc}`]: rule("knowledge", "knowledge.delete"),
  [`POST ${ROUTES.adminKnowledgeSearch}`]: rule("knowledge"),
  // The site's settings (origins, models, limits, retention, takeover): owners.
  [`GET ${ROUTES.adminSite}`]: rule("site"),
  [`PUT ${ROUTES.adminSite}`]: rule("site", "settings.change"),
  // Signed webhooks: the site's settings, so owners; a change of endpoint or secret is audited. Events carry
  // visitors' words and contact details, so pointing them at an address (a new endpoint, a changed one) asks
  // for a fresh sign-in, as an export does; so does a new signing secret, a key. Removing an endpoint sends
  // nothing anywhere: it stays a plain, audited change.
  [`GET ${ROUTES.adminWebhooks}`]: rule("site"),
  [`POST ${ROUTES.adminWebhooks}`]: rule("site", "settings.change", true),
  [`PUT ${ROUTES.adminWebhook}`]: rule("site", "settings.change", true),
  [`DELETE ${ROUTES.adminWebhook}`]: rule("site", "settings.change"),
  [`POST ${ROUTES.adminWebhookRotate}`]: rule("site", "secret.rotate", true),
  [`POST ${ROUTES.adminWebhookTest}`]: rule("site"),
  [`GET ${ROUTES.adminWebhookDeliveries}`]: rule("site"),
  [`POST ${ROUTES.adminWebhookResend}`]: rule("site"),
  // The site's calendar and MCP servers: its settings, so owners (an agent's booking switch and tool
  // allowlist are the agent's, so editors, through the agent routes). The worker sends a secret it holds
  // (the calendar's key, a server's auth header) to the address these set, and "Test connection" sends it
  // to the address in its body: each asks for a fresh sign-in, as SSO's settings do.
  [`GET ${ROUTES.adminBooking}`]: rule("site"),
  [`PUT ${ROUTES.adminBooking}`]: rule("site", "settings.change", true),
  [`DELETE ${ROUTES.adminBooking}`]: rule("site", "settings.change", true),
  [`GET ${ROUTES.adminMcpServers}`]: rule("site"),
  [`PUT ${ROUTES.adminMcpServers}`]: rule("site", "settings.change", true),
  [`POST ${ROUTES.adminMcpServerTest}`]: rule("site", undefined, true),
  [`GET ${ROUTES.adminMcpTools}`]: rule("agents"),
  // Takeover: staff.
  [`GET ${ROUTES.adminLive}`]: rule("live"),
  [`POST ${ROUTES.adminLivePresence}`]: rule("live"),
  [`DELETE ${ROUTES.adminLivePresence}`]: rule("live"),
  [`GET ${ROUTES.adminLiveChannel}`]: rule("live", "conversation.read"),
  [`POST ${ROUTES.adminLiveJoin}`]: rule("live", "takeover.join"),
  [`POST ${ROUTES.adminLiveMessages}`]: rule("live"),
  [`POST ${ROUTES.adminLiveHandback}`]: rule("live", "takeover.handback"),
  // The team and its keys: owners; role changes, removals and keys ask for a fresh sign-in.
  [`GET ${ROUTES.adminAccounts}`]: rule("team"),
  [`PATCH ${ROUTES.adminAccount}`]: rule("team", "account.role", true),
  [`DELETE ${ROUTES.adminAccount}`]: rule("team", "account.remove", true),
  [`DELETE ${ROUTES.adminAccountIdentity}`]: rule("team", "identity.unlink", true),
  [`POST ${ROUTES.adminInvitations}`]: rule("team", "invitation.create"),
  [`DELETE ${ROUTES.adminInvitation}`]: rule("team", "invitation.revoke"),
  [`POST ${ROUTES.adminKeys}`]: rule("team", "key.create", true),
  [`DELETE ${ROUTES.adminKeyRevoke}`]: rule("team", "key.revoke", true),
  // Single sign-on decides who comes in and as what: owners, with a fresh sign-in to change it.
  [`GET ${ROUTES.adminSso}`]: rule("team"),
  [`PUT ${ROUTES.adminSso}`]: rule("team", "settings.change", true),
  [`DELETE ${ROUTES.adminSso}`]: rule("team", "settings.change", true),
  [`GET ${ROUTES.adminAudit}`]: rule("audit"),
  [`GET ${ROUTES.adminAuditVerify}`]: rule("audit", "audit.verify"),
  // One's own account (any role; an admin key has none).
  [`GET ${ROUTES.adminMe}`]: rule("signed_in"),
  [`POST ${ROUTES.adminMyPasskeyOptions}`]: rule("self"),
  [`POST ${ROUTES.adminMyPasskeys}`]: rule("self", "passkey.add"),
  [`DELETE ${ROUTES.adminMyPasskey}`]: rule("self", "passkey.remove"),
  [`DELETE ${ROUTES.adminMyIdentity}`]: rule("self", "identity.unlink", true),
  // The console's own session routes check their credentials themselves (and audit them).
  [`POST ${ROUTES.consoleSession}`]: rule("public"),
  [`GET ${ROUTES.consoleSession}`]: rule("signed_in"),
  [`DELETE ${ROUTES.consoleSession}`]: rule("signed_in"),
  [`POST ${ROUTES.consolePasskeyOptions}`]: rule("public"),
  [`POST ${ROUTES.consolePasskey}`]: rule("public"),
  [`POST ${ROUTES.consoleInvitation}`]: rule("public"),
  [`POST ${ROUTES.consoleInvitationOptions}`]: rule("public"),
  [`POST ${ROUTES.consoleInvitationAccept}`]: rule("public"),
  [`GET ${ROUTES.consoleSso}`]: rule("public"),
  [`POST ${ROUTES.consoleSsoStart}`]: rule("public"),
  [`POST ${ROUTES.consoleSsoCallback}`]: rule("public"),
};

const compiled = Object.entries(ROUTE_PERMISSIONS).map(([key, r]) => {
  const [method, pattern] = key.split(" ") as [Method, string];
  const names: string[] = [];
  const source = pattern.replace(/:(\w+)/g, (_m, name: string) => (names.push(name), "([^/]+)"));
  return { method, pattern, names, re: new RegExp(`^${source}$`), rule: r };
});
// A pattern with fewer parameters wins (`/live/presence` before `/live/:id/...`).
compiled.sort((a, b) => a.names.length - b.names.length);

/** The entry for a request (method, path), with the route's pattern and its parameters; null if none. */
export function ruleFor(
  method: string,
  path: string,
): { pattern: string; params: Record<string, string>; rule: RouteRule } | null {
  const m = method === "HEAD" ? "GET" : method;
  for (const c of compiled) {
    if (c.method !== m) continue;
    const hit = c.re.exec(path);
    if (!hit) continue;
    const params: Record<string, string> = {};
    c.names.forEach((n, i) => (params[n] = safeDecode(hit[i + 1])));
    return { pattern: c.pattern, params, rule: c.rule };
  }
  return null;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
