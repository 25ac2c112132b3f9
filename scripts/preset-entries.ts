import {
  AgentConfig,
  JURISDICTIONS,
  SiteConfig,
  type Jurisdiction,
  type SiteConfigInput,
} from "../shared/config/agent-config.ts";
import { AGENT_TEMPLATES } from "../worker/templates/index.ts";

export interface PresetInstall {
  siteKey: string;
  /** Exact origins (scheme://host[:port]) of the owner's pages. */
  origins: string[];
  /** Preset agents to install; default: all of them. */
  agents?: string[];
  /** Whose documents knowledge_search ranks (`docs:<tenantId>`); default: the site key. */
  tenantId?: string;
  /** Hex SHA-256 of the owner's admin key; without it the admin routes refuse the site. */
  adminKeySha256?: string;
  /** Where the site's conversations are kept (eu, fedramp); chosen now, since stored data cannot follow a change. */
  jurisdiction?: string;
}

/** One entry of `wrangler kv bulk put`'s file. */
export interface KvEntry {
  key: string;
  value: string;
}

/**
 * The KV entries that install preset agents for a production site: `agent:<id>` for each agent,
 * `site:<key>` with the owner's origins, and `origin:<origin>` for CORS. Every value is checked
 * against the schema the worker loads it with, so what is written is what the worker accepts. A new
 * site redacts personal details from its traces (`redactTraces`); a site stored before keeps its setting.
 */
export function presetEntries(opts: PresetInstall): KvEntry[] {
  const agents = opts.agents?.length ? opts.agents : Object.keys(AGENT_TEMPLATES);
  for (const id of agents) {
    if (!AGENT_TEMPLATES[id])
      throw new Error(`No preset agent ${id}; presets: ${Object.keys(AGENT_TEMPLATES).join(", ")}`);
  }
  if (!opts.origins.length) throw new Error("Give at least one --origin: the pages allowed to open sessions");
  opts.origins.forEach(checkOrigin);
  if (opts.jurisdiction !== undefined && !(JURISDICTIONS as readonly string[]).includes(opts.jurisdiction))
    throw new Error(`--jurisdiction ${opts.jurisdiction} is not one of ${JURISDICTIONS.join(", ")}`);
  const site: SiteConfigInput = {
    siteKey: opts.siteKey,
    tenantId: opts.tenantId ?? opts.siteKey,
    allowedOrigins: opts.origins,
    agents,
    redactTraces: true,
    ...(opts.adminKeySha256 ? { adminKeySha256: opts.adminKeySha256.toLowerCase() } : {}),
    ...(opts.jurisdiction ? { jurisdiction: opts.jurisdiction as Jurisdiction } : {}),
  };
  const checked = SiteConfig.safeParse(site);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new Error(`Site config is invalid at ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return [
    ...agents.map((id) => ({ key: `agent:${id}`, value: JSON.stringify(AgentConfig.parse(AGENT_TEMPLATES[id])) })),
    { key: `site:${opts.siteKey}`, value: JSON.stringify(checked.data) },
    ...opts.origins.map((origin) => ({ key: `origin:${origin}`, value: opts.siteKey })),
  ];
}

/** Throws unless `origin` is exact (scheme://host[:port]), as a site's allowed origins must be. */
export function checkOrigin(origin: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(origin);
  } catch {
    /* reported below */
  }
  if (!parsed || parsed.origin !== origin || !/^https?:$/.test(parsed.protocol)) {
    throw new Error(
      `--origin ${origin} is not an exact origin like https://www.example.com (no path, no slash at the end)`,
    );
  }
}
