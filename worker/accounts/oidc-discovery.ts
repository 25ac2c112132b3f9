import { z } from "zod/mini";
import { ApiError } from "../errors.ts";
import { outboundUrlProblem } from "../net/outbound-url.ts";
import { outboundRefusal, type OutboundPolicy } from "../net/resolved-address.ts";

/**
 * An identity provider as the worker reaches it: its discovery document
 * (`<issuer>/.well-known/openid-configuration`, OpenID Connect Discovery 1.0) and its signing keys
 * (JWKS). The worker fetches these itself, so every address must be public https: loopback only in
 * demo mode (the tests' providers run on 127.0.0.1), private and link-local never. Both are kept per
 * isolate for a few minutes; keys are fetched again at once when a token names a key not seen yet
 * (the provider rotated them).
 */
const CACHE_MS = 5 * 60_000;
const FETCH_MS = 10_000;

export const Discovery = z.looseObject({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  jwks_uri: z.string(),
  userinfo_endpoint: z.optional(z.string()),
  token_endpoint_auth_methods_supported: z.optional(z.array(z.string())),
  id_token_signing_alg_values_supported: z.optional(z.array(z.string())),
  code_challenge_methods_supported: z.optional(z.array(z.string())),
});
export type Discovery = z.infer<typeof Discovery>;

export interface Jwk {
  kty: string;
  kid?: string;
  alg?: string;
  use?: string;
  [k: string]: unknown;
}

/** Why the worker will not fetch this address, or null. */
export function providerUrlProblem(raw: string, loopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a URL";
  }
  if (url.username || url.password) return "credentials in the URL are refused";
  if (url.search || url.hash) return "no query or fragment";
  return outboundUrlProblem(raw, loopback);
}

const unreachable = (what: string) =>
  new ApiError(502, "sso_unreachable", `The identity provider did not answer as it should: ${what}`);

/** GET a provider's JSON, within FETCH_MS, following no redirect (it could lead to an address refused above). */
async function getJson(url: string, policy: OutboundPolicy, what: string): Promise<unknown> {
  const problem = providerUrlProblem(url, policy.loopback);
  if (problem) throw unreachable(`its ${what} address ${url} is refused (${problem})`);
  const resolved = await outboundRefusal(url, policy);
  if (resolved) throw unreachable(`its ${what} address ${url} is refused (${resolved.message})`);
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: "application/json" },
      redirect: "manual",
      signal: AbortSignal.timeout(FETCH_MS),
    });
  } catch (err) {
    throw unreachable(`${what} at ${url}: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300));
  }
  if (!res.ok) throw unreachable(`${what} at ${url} answered ${res.status}`);
  try {
    return await res.json();
  } catch {
    throw unreachable(`${what} at ${url} is not JSON`);
  }
}

const discoveries = new Map<string, { doc: Discovery; until: number }>();
const keySets = new Map<string, { keys: Jwk[]; until: number }>();

/**
 * The provider's discovery document, checked: it names this very issuer (a document naming another
 * would let that one's tokens in), and its token and key addresses pass the address rules.
 */
export async function discover(
  issuer: string,
  policy: OutboundPolicy,
  opts: { fresh?: boolean } = {},
): Promise<Discovery> {
  const cached = discoveries.get(issuer);
  if (cached && cached.until > Date.now() && !opts.fresh) return cached.doc;
  const url = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  const parsed = Discovery.safeParse(await getJson(url, policy, "discovery document"));
  if (!parsed.success) throw unreachable(`its discovery document at ${url} lacks the endpoints a sign-in needs`);
  const doc = parsed.data;
  if (doc.issuer !== issuer)
    throw unreachable(`its discovery document names the issuer ${doc.issuer}, not ${issuer}`.slice(0, 400));
  for (const [what, at] of [
    ["authorization", doc.authorization_endpoint],
    ["token", doc.token_endpoint],
    ["keys", doc.jwks_uri],
    ...(doc.userinfo_endpoint ? [["userinfo", doc.userinfo_endpoint] as const] : []),
  ] as const) {
    const problem = providerUrlProblem(at, policy.loopback);
    if (problem) throw unreachable(`its ${what} endpoint ${at} is refused (${problem})`.slice(0, 400));
  }
  discoveries.set(issuer, { doc, until: Date.now() + CACHE_MS });
  return doc;
}

/** The provider's signing keys (`use` other than `enc`); `fresh`: fetched again whatever the cache holds. */
export async function signingKeys(jwksUri: string, policy: OutboundPolicy, fresh = false): Promise<Jwk[]> {
  const cached = keySets.get(jwksUri);
  if (cached && cached.until > Date.now() && !fresh) return cached.keys;
  const body = (await getJson(jwksUri, policy, "key set")) as { keys?: unknown };
  if (!Array.isArray(body?.keys)) throw unreachable(`its key set at ${jwksUri} has no keys`);
  const keys = body.keys.filter(
    (k): k is Jwk => !!k && typeof k === "object" && typeof (k as Jwk).kty === "string" && (k as Jwk).use !== "enc",
  );
  keySets.set(jwksUri, { keys, until: Date.now() + CACHE_MS });
  return keys;
}

/** Forgets what this isolate keeps of providers (tests that change a provider between calls). */
export function forgetProviders(): void {
  discoveries.clear();
  keySets.clear();
}
