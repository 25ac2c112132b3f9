// Which page of the API reference an operation is on: one page per tag of the contract, the admin API's
// (most of the routes) split by the resource its path names. A resource not listed here gets a page of its
// own, named after it, so a new route is never left out of the reference.

export interface ReferenceGroup {
  /** The page's file name under docs/reference/. */
  slug: string;
  title: string;
  /** Said under the title. */
  lead: string;
}

const TAG_GROUPS: Record<string, ReferenceGroup> = {
  public: { slug: "public", title: "Public routes", lead: "Routes that need no credentials." },
  visitor: {
    slug: "visitor",
    title: "Visitor routes",
    lead: "What the widget calls for a visitor, with the session token `POST /v1/sessions` answers.",
  },
  console: {
    slug: "console",
    title: "Console routes",
    lead: "The console's page and its sign-in: site keys, passkeys, invitations.",
  },
  demo: {
    slug: "demo",
    title: "Demo routes",
    lead: "Served in demo mode only (`npm start`); a deployed worker has none.",
  },
};

const admin = (slug: string, title: string, lead: string): ReferenceGroup => ({
  slug: `admin-${slug}`,
  title: `Admin: ${title}`,
  lead: `${lead} With the admin key header and \`?site=\`, or the console's cookie (and its CSRF header on writes).`,
});

const SITE = admin("site", "site and agents", "The site's settings, its agents, their drafts and the templates.");
const KNOWLEDGE = admin("knowledge", "knowledge", "The documents `knowledge_search` ranks.");
const PROMPTS = admin("prompts", "prompts", "The prompt registry: versions, labels and their history.");
const DESK = admin("desk", "strategy desk", "The strategy desk's queue, runs and reviews.");
const CONVERSATIONS = admin(
  "conversations",
  "conversations",
  "The site's conversations, their exports, erasures and insights.",
);
const LIVE = admin("live", "live and takeover", "Staff presence and conversations taken over by a person.");
const ACCOUNTS = admin(
  "accounts",
  "accounts and audit",
  "Staff accounts, invitations, named keys, passkeys, the audit trail.",
);
const WEBHOOKS = admin("webhooks", "webhooks", "Signed webhook endpoints and their deliveries.");

// Keyed by the path's segment after /v1/admin/.
const ADMIN_GROUPS: Record<string, ReferenceGroup> = {
  site: SITE,
  templates: SITE,
  agents: SITE,
  knowledge: KNOWLEDGE,
  "knowledge-search": KNOWLEDGE,
  prompts: PROMPTS,
  desk: DESK,
  sessions: CONVERSATIONS,
  exports: CONVERSATIONS,
  erasures: CONVERSATIONS,
  insights: CONVERSATIONS,
  live: LIVE,
  accounts: ACCOUNTS,
  invitations: ACCOUNTS,
  keys: ACCOUNTS,
  me: ACCOUNTS,
  audit: ACCOUNTS,
  webhooks: WEBHOOKS,
  "webhook-deliveries": WEBHOOKS,
};

/** The page an operation belongs on, from its first tag and its path. */
export function groupOf(tag: string, path: string): ReferenceGroup {
  if (tag === "admin") {
    const resource = path.split("/")[3] ?? "other";
    return ADMIN_GROUPS[resource] ?? admin(resource, resource, `The \`/v1/admin/${resource}\` routes.`);
  }
  return TAG_GROUPS[tag] ?? { slug: tag, title: `${tag} routes`, lead: `The routes tagged \`${tag}\`.` };
}
