import { env } from "cloudflare:workers";
import type { SiteConfigInput } from "../../../shared/agent-config.ts";
import { clearConfigCache } from "../../../worker/config/config-store.ts";
import { demoSite } from "../../../worker/demo/index.ts";

/** Writes a site config into KV (the demo site's values unless overridden) under a fresh key. */
export async function putSite(overrides: Partial<SiteConfigInput> = {}): Promise<string> {
  const siteKey = overrides.siteKey ?? `test-site-${crypto.randomUUID()}`;
  const site = { ...demoSite, ...overrides, siteKey };
  await env.CONFIG.put(`site:${siteKey}`, JSON.stringify(site));
  clearConfigCache();
  return siteKey;
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}
