import { AgentConfig, SiteConfig, type SiteConfigInput } from "../../shared/config/agent-config.ts";
import { siteAgentKey } from "../../worker/config/config-keys.ts";
import { AGENT_TEMPLATES } from "../../worker/templates/index.ts";
import type { KvEntry } from "../preset-entries.ts";

/** A KV entry to write; `expiration_ttl` (seconds) as `wrangler kv bulk put` takes it. */
export type DeployEntry = KvEntry & { expiration_ttl?: number };

/** The KV keys a site's setup reads: its config, its origins' CORS entries, its agents. */
export function siteKeys(siteKey: string, origins: string[], agents: string[]): string[] {
  return [`site:${siteKey}`, ...origins.map((o) => `origin:${o}`), ...agents.map((a) => siteAgentKey(siteKey, a))];
}

/** One change, as said once done and as a dry run says it. */
export interface Change {
  done: string;
  would: string;
}

const change = (done: string, would: string): Change => ({ done, would });

export interface SitePlan {
  entries: DeployEntry[];
  /** What the plan changes, and what it found already there. */
  changes: Change[];
  kept: string[];
  /** True when the site itself is new (its owner gets a sign-in link and an admin key). */
  created: boolean;
  /** The admin key made for the site (its digest is in `entries`), shown once. */
  adminKey?: string;
}

/**
 * What a deploy writes for a site: only what `existing` (the values of `siteKeys`, null when absent)
 * lacks. A new site gets the origins, the agents and an admin key; an existing one gets the origins and
 * agents it does not list yet, and an admin key only if it has none. An origin another site owns is
 * refused: two sites cannot share a page's CORS entry.
 */
export function planSite(
  opts: { siteKey: string; origins: string[]; agents: string[] },
  existing: Record<string, string | null>,
  newAdminKey: () => { key: string; sha256: string },
): SitePlan {
  const plan: SitePlan = { entries: [], changes: [], kept: [], created: false };
  const raw = existing[`site:${opts.siteKey}`];
  const found = raw ? SiteConfig.safeParse(JSON.parse(raw)) : null;
  if (found && !found.success) throw new Error(`site:${opts.siteKey} in KV is not a valid site config`);
  const site: SiteConfigInput = found?.data ?? {
    siteKey: opts.siteKey,
    tenantId: opts.siteKey,
    allowedOrigins: [],
    agents: [],
  };
  plan.created = !found;

  const newOrigins = opts.origins.filter((o) => !site.allowedOrigins.includes(o));
  const newAgents = opts.agents.filter((a) => !site.agents.includes(a));
  for (const origin of opts.origins) {
    const owner = existing[`origin:${origin}`];
    if (owner && owner !== opts.siteKey) throw new Error(`Origin ${origin} belongs to site ${owner} already`);
    if (owner) plan.kept.push(`origin ${origin}`);
    else plan.entries.push({ key: `origin:${origin}`, value: opts.siteKey });
  }
  for (const id of opts.agents) {
    const key = siteAgentKey(opts.siteKey, id);
    if (existing[key]) plan.kept.push(`agent ${id}`);
    else {
      plan.entries.push({ key, value: JSON.stringify(AgentConfig.parse(AGENT_TEMPLATES[id])) });
      plan.changes.push(change(`installed the ${id} template`, `would install the ${id} template`));
    }
  }
  let adminKeySha256 = site.adminKeySha256;
  if (!adminKeySha256) {
    const made = newAdminKey();
    plan.adminKey = made.key;
    adminKeySha256 = made.sha256;
    if (found)
      plan.changes.push(change("gave the site an admin key (it had none)", "would give the site an admin key"));
  }
  if (plan.created || newOrigins.length || newAgents.length || plan.adminKey) {
    const next = SiteConfig.parse({
      ...site,
      allowedOrigins: [...site.allowedOrigins, ...newOrigins],
      agents: [...site.agents, ...newAgents],
      adminKeySha256,
    });
    plan.entries.unshift({ key: `site:${opts.siteKey}`, value: JSON.stringify(next) });
    const added = [...newOrigins, ...newAgents].join(", ");
    if (plan.created) {
      const what = `site ${opts.siteKey} for ${opts.origins.join(", ")}`;
      plan.changes.unshift(change(`created ${what}`, `would create ${what}`));
    } else if (added) plan.changes.unshift(change(`added ${added} to the site`, `would add ${added} to the site`));
  } else plan.kept.unshift(`site ${opts.siteKey}`);
  return plan;
}
