import { decode, verify } from "hono/jwt";
import { ApiError } from "../errors.ts";
import type { Jwk } from "./oidc-discovery.ts";

/**
 * The id token's checks (OpenID Connect Core 3.1.3.7), with hono's JWT code for the signature (it runs
 * on the Workers runtime's WebCrypto; no other library). Asymmetric algorithms only: a provider signs
 * with a private key and publishes the public one, so `none` and the HMAC algorithms (which would take
 * a public key as a shared secret) are refused before any key is looked at.
 */
export const ID_TOKEN_ALGS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];
/** Clocks differ a little between the provider and the worker. */
const SKEW_S = 60;
/** An id token is used as it comes from the token endpoint: one issued longer ago than this is stale. */
const MAX_AGE_S = 10 * 60;

type Alg = Exclude<Parameters<typeof verify>[2], string>["alg"];

export interface Expected {
  issuer: string;
  clientId: string;
  nonce: string;
  /** The provider's `id_token_signing_alg_values_supported`, when its discovery lists them. */
  algs?: string[];
  /** The sign-in asked for a provider sign-in at most this old (`max_age`, seconds); 0: none asked. */
  maxAge: number;
  nowS: number;
}

export interface IdClaims {
  sub: string;
  /** When the person last proved who they are at the provider (`auth_time`), if it says. */
  authTime?: number;
  claims: Record<string, unknown>;
}

const bad = (why: string) => new ApiError(401, "sso_token", `The identity provider's id token is refused: ${why}`);

/** The header's algorithm and key id, or a refusal. */
export function tokenHeader(token: string): { alg: string; kid?: string } {
  let header: { alg?: unknown; kid?: unknown };
  try {
    header = decode(token).header as typeof header;
  } catch {
    throw bad("it is not a signed JWT");
  }
  if (typeof header.alg !== "string" || !ID_TOKEN_ALGS.includes(header.alg))
    throw bad(`its algorithm ${String(header.alg).slice(0, 20)} is not one a provider signs with`);
  return { alg: header.alg, ...(typeof header.kid === "string" ? { kid: header.kid } : {}) };
}

/** The key the token names among the provider's: by `kid`, or its only key when the token names none. */
export function keyFor(keys: Jwk[], header: { alg: string; kid?: string }): Jwk | null {
  const matching =
    header.kid === undefined ? (keys.length === 1 ? keys : []) : keys.filter((k) => k.kid === header.kid);
  return matching.find((k) => k.alg === undefined || k.alg === header.alg) ?? null;
}

/**
 * The id token's signature by `key`, then its claims: this issuer, this client among its audiences
 * (and the authorized party when there are several), not expired nor issued in the future or long
 * ago, this sign-in's nonce, a subject, and a provider sign-in recent enough when one was asked.
 */
export async function checkIdToken(token: string, key: Jwk, e: Expected): Promise<IdClaims> {
  const { alg } = tokenHeader(token);
  if (e.algs && !e.algs.includes(alg)) throw bad(`the provider does not say it signs with ${alg}`);
  let claims: Record<string, unknown>;
  try {
    claims = (await verify(token, key as JsonWebKey, {
      alg: alg as Alg,
      exp: false,
      nbf: false,
      iat: false,
    })) as Record<string, unknown>;
  } catch (err) {
    throw bad(`its signature does not verify with the provider's key (${(err as Error).name})`);
  }
  if (claims.iss !== e.issuer)
    throw new ApiError(
      401,
      "sso_issuer",
      `The id token comes from another issuer: ${String(claims.iss).slice(0, 200)}, not ${e.issuer}`,
    );
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!aud.includes(e.clientId)) throw bad("it was issued for another client (aud)");
  if (aud.length > 1 && claims.azp !== e.clientId) throw bad("its authorized party (azp) is another client");
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
  const exp = num(claims.exp);
  const iat = num(claims.iat);
  if (exp === null || exp <= e.nowS - SKEW_S) throw bad("it has expired");
  if (iat === null || iat > e.nowS + SKEW_S) throw bad("it was issued in the future");
  if (iat < e.nowS - MAX_AGE_S - SKEW_S) throw bad("it was issued too long ago");
  if (typeof claims.nonce !== "string" || claims.nonce !== e.nonce)
    throw new ApiError(401, "sso_nonce", "The id token's nonce is not this sign-in's: it was issued for another one");
  if (typeof claims.sub !== "string" || !claims.sub || claims.sub.length > 255) throw bad("it names no subject");
  const authTime = num(claims.auth_time) ?? undefined;
  if (e.maxAge > 0 && authTime !== undefined && authTime < e.nowS - e.maxAge - SKEW_S)
    throw bad("the provider's sign-in is older than this step allows");
  return { sub: claims.sub, claims, ...(authTime !== undefined ? { authTime } : {}) };
}
