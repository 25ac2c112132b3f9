import { parseArgs } from "node:util";
import { AGENT_TEMPLATES } from "../../worker/templates/index.ts";
import { checkOrigin } from "../preset-entries.ts";

export const USAGE = `npm run deploy -- --origin https://www.example.com [--origin ...] [--agent <template> ...]
  [--site <site key>] [--provider-url https://api.openai.com/v1] [--url <the worker's address>]
  [--dry-run] [--local [--persist-to .wrangler/state] [--dev-vars .dev.vars]] [--no-build] [--sign-in-link]

  --origin        the pages that embed the chat (exact origins); the first names the site by default
  --agent         agent templates to install (${Object.keys(AGENT_TEMPLATES).join(", ")}; default: all)
  --provider-url  the OpenAI-compatible provider (or LLM_BASE_URL); its key comes from LLM_API_KEY or a prompt
  --url           the worker's public address, when it is not the workers.dev one wrangler reports
  --dry-run       print every step and change nothing
  --local         the same steps against local storage (wrangler dev's), no Cloudflare account
  --sign-in-link  a new one-time console sign-in link for an existing site`;

export interface DeployOptions {
  origins: string[];
  agents: string[];
  siteKey: string;
  providerUrl?: string;
  url?: string;
  dryRun: boolean;
  local: boolean;
  /** Local storage (miniflare's), as `wrangler dev --persist-to` reads it. */
  persistTo: string;
  /** Local secrets, as `wrangler dev --env-file` reads them (.dev.vars by default, which wrangler dev reads itself). */
  envFile: string;
  build: boolean;
  signInLink: boolean;
}

export class UsageError extends Error {
  override name = "UsageError";
}

/** The site key a deploy gives the site of its first origin, so that running it again finds the same site. */
export function siteKeyFor(origin: string): string {
  const host = new URL(origin).hostname.replace(/^www\./, "");
  const key = host.replace(/[^a-z0-9]+/gi, "-").toLowerCase();
  return key.length >= 8 ? key : `${key}-site`.padEnd(8, "0");
}

export function deployOptions(argv: string[], env: Record<string, string | undefined>): DeployOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      origin: { type: "string", multiple: true, default: [] },
      agent: { type: "string", multiple: true, default: [] },
      site: { type: "string" },
      "provider-url": { type: "string" },
      url: { type: "string" },
      "dry-run": { type: "boolean", default: false },
      local: { type: "boolean", default: false },
      "persist-to": { type: "string", default: ".wrangler/state" },
      "dev-vars": { type: "string", default: ".dev.vars" },
      "no-build": { type: "boolean", default: false },
      "sign-in-link": { type: "boolean", default: false },
    },
  });
  const origins = values.origin;
  if (!origins.length) throw new UsageError("Give at least one --origin: the pages that embed the chat");
  try {
    origins.forEach(checkOrigin);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const agents = values.agent.length ? values.agent : Object.keys(AGENT_TEMPLATES);
  const unknown = agents.filter((a) => !AGENT_TEMPLATES[a]);
  if (unknown.length)
    throw new UsageError(
      `No agent template ${unknown.join(", ")}; templates: ${Object.keys(AGENT_TEMPLATES).join(", ")}`,
    );
  const siteKey = values.site ?? siteKeyFor(origins[0]);
  if (!/^[A-Za-z0-9_-]{8,100}$/.test(siteKey))
    throw new UsageError(`--site ${siteKey}: 8 to 100 letters, digits, - or _`);
  const providerUrl = values["provider-url"] ?? (env.LLM_BASE_URL || undefined);
  if (providerUrl && !/^https?:\/\/[^\s/?#]+[^\s?#]*$/.test(providerUrl))
    throw new UsageError(`--provider-url ${providerUrl} is not an http(s) URL without a query`);
  if (values.url && !/^https?:\/\/[^\s/?#]+$/.test(values.url.replace(/\/+$/, "")))
    throw new UsageError(`--url ${values.url} is not an address like https://chat.example.com`);
  return {
    origins,
    agents,
    siteKey,
    providerUrl,
    url: values.url?.replace(/\/+$/, "") ?? (values.local ? "http://127.0.0.1:8787" : undefined),
    dryRun: values["dry-run"],
    local: values.local,
    persistTo: values["persist-to"],
    envFile: values["dev-vars"],
    build: !values["no-build"],
    signInLink: values["sign-in-link"],
  };
}
