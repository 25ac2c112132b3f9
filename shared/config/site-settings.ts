import { z } from "zod/mini";
import { SiteConfig } from "./agent-config.ts";

/**
 * What a site owner edits from the console (PUT /v1/admin/site): a pick of the very schema the
 * worker loads `site:<key>` with, so a value the form may send is one the worker accepts. The key,
 * the tenant, the admin key's digest and the agent list are not settings: the worker keeps them
 * (agents change through the agent routes); providers, fallbacks and safety are kept as stored, and so
 * is the jurisdiction, which data already stored could not follow.
 */
export const SiteSettings = z.pick(SiteConfig, {
  allowedOrigins: true,
  models: true,
  maxTokens: true,
  rateLimits: true,
  budgets: true,
  desk: true,
  retentionDays: true,
  auditRetentionDays: true,
  consoleIdleMinutes: true,
  takeover: true,
  redactTraces: true,
  keepNothingMinutes: true,
  consent: true,
});
export type SiteSettings = z.infer<typeof SiteSettings>;
export type SiteSettingsInput = z.input<typeof SiteSettings>;

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Why an allowed-origin pattern is refused, or null. A site's pages are `https://host[:port]`
 * exactly (no path, no slash at the end: browsers send the bare origin); loopback origins, also
 * with a port wildcard (`http://127.0.0.1:*`), only where `loopback` is allowed (demo mode): a
 * deployed site that listed one would let any local page open its sessions.
 */
export function originPatternProblem(pattern: string, loopback: boolean): string | null {
  const wildcard = /^(https?:\/\/[^/]+):\*$/.exec(pattern);
  let url: URL | undefined;
  try {
    url = new URL(wildcard ? `${wildcard[1]}:1` : pattern);
  } catch {
    return "not an origin: write it as https://www.example.com";
  }
  if (url.hostname.includes("*")) return "no wildcard subdomains: list each origin (https://www.example.com)";
  if (LOOPBACK_HOSTS.has(url.hostname)) {
    if (!loopback) return "loopback origins are allowed in local demo mode only";
  } else {
    if (wildcard) return "a port wildcard is allowed for loopback origins only";
    if (url.protocol !== "https:") return "must start with https:// (visitors' pages are served over HTTPS)";
  }
  const bare = wildcard ? `${wildcard[1]}:1` : pattern;
  if (url.origin !== bare) return `not a bare origin: write ${url.origin} (no path, no slash at the end)`;
  return null;
}
