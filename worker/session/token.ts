import { sign, verify } from "hono/jwt";
import { JwtTokenExpired, JwtTokenSignatureMismatched } from "hono/utils/jwt/types";
import { TokenClaims } from "../../shared/session/token.ts";
import type { Claims } from "../env.ts";
import { hmacKey } from "../hmac-key.ts";

/**
 * Session tokens are JWTs (HS256) made and checked by hono's JWT helper: stateless, so the chat
 * route checks them without a storage round trip. The HMAC key is imported once per isolate.
 */
export async function signToken(claims: Claims, secret: string): Promise<string> {
  return sign(claims, await hmacKey(secret), "HS256");
}

export type VerifyResult =
  { ok: true; claims: Claims } | { ok: false; reason: "malformed" | "bad_signature" | "expired" };

/**
 * Tokens this isolate has verified, with their claims, until they expire: a visitor's later turns
 * skip the HMAC and the claims' parsing. Keyed by the secret too, so a rotated secret verifies anew.
 * Bounded (cleared when full): anyone can send tokens, but only valid ones are kept.
 */
const VERIFIED_MAX = 10_000;
const verified = new Map<string, Claims>();

export async function verifyToken(token: string, secret: string): Promise<VerifyResult> {
  const cacheKey = `${secret.length}:${secret}:${token}`;
  const known = verified.get(cacheKey);
  if (known) {
    // As hono's check: expired once `exp` (seconds) is not after now.
    if (known.exp > Math.floor(Date.now() / 1000)) return { ok: true, claims: known };
    verified.delete(cacheKey);
    return { ok: false, reason: "expired" };
  }
  const result = await verifyAnew(token, secret);
  if (result.ok) {
    if (verified.size >= VERIFIED_MAX) verified.clear();
    verified.set(cacheKey, Object.freeze(result.claims));
  }
  return result;
}

async function verifyAnew(token: string, secret: string): Promise<VerifyResult> {
  let payload: unknown;
  try {
    // Checks the algorithm, the signature (crypto.subtle.verify, constant time) and `exp`.
    payload = await verify(token, await hmacKey(secret), "HS256");
  } catch (err) {
    if (err instanceof JwtTokenExpired) return { ok: false, reason: "expired" };
    if (err instanceof JwtTokenSignatureMismatched) return { ok: false, reason: "bad_signature" };
    return { ok: false, reason: "malformed" };
  }
  const parsed = TokenClaims.safeParse(payload);
  return parsed.success ? { ok: true, claims: parsed.data } : { ok: false, reason: "malformed" };
}
