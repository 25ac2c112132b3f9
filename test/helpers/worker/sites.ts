import { env } from "cloudflare:workers";
import type { SiteConfigInput } from "../../../shared/config/agent-config.ts";
import type { ProviderProfileInput } from "../../../shared/config/provider-config.ts";
import { clearConfigCache } from "../../../worker/config/config-store.ts";
import { demoSite } from "../../../worker/demo/index.ts";
import { PROVIDER_URL } from "./scripted-provider.ts";

/** Writes a site config into KV (the demo site's values unless overridden) under a fresh key. */
export async function putSite(overrides: Partial<SiteConfigInput> = {}): Promise<string> {
  const siteKey = overrides.siteKey ?? `test-site-${crypto.randomUUID()}`;
  const site = { ...demoSite, ...overrides, siteKey };
  await env.CONFIG.put(`site:${siteKey}`, JSON.stringify(site));
  clearConfigCache();
  return siteKey;
}

/**
 * A site whose models are at `baseUrl`: one provider profile, its key the worker's LLM_API_KEY (a binding
 * in tests, a secret when deployed). The chat route and the session's object, which runs a streamed
 * reply, both reach the provider through it, as a deployed site's profiles are reached.
 */
export async function providerSite(
  baseUrl: string,
  overrides: Partial<SiteConfigInput> = {},
  profile: Partial<ProviderProfileInput> = {},
): Promise<string> {
  return putSite({ providers: [{ id: "test", baseUrl, ...profile }], ...overrides });
}

/** A copy of the demo site whose provider is the scripted one (scripted-provider.ts stubs `fetch` for it). */
export const scriptedSite = (overrides: Partial<SiteConfigInput> = {}) => providerSite(PROVIDER_URL, overrides);

export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}
