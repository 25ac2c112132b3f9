import { TokenClaims } from "../../shared/token.ts";
import type { Claims } from "../env.ts";

/**
 * Session tokens: base64url(JSON claims) + "." + base64url(HMAC-SHA256). Stateless, so the chat
 * route checks them without a storage round trip. The key is imported once per isolate.
 */
const keys = new Map<string, Promise<CryptoKey>>();
const enc = new TextEncoder();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keys.set(secret, key);
  }
  return key;
}

const b64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

function fromB64url(text: string): Uint8Array | null {
  try {
    const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

export async function signToken(claims: Claims, secret: string): Promise<string> {
  const body = b64url(enc.encode(JSON.stringify(claims)));
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret), enc.encode(body)));
  return `${body}.${b64url(sig)}`;
}

export type VerifyResult = { ok: true; claims: Claims } | { ok: false; reason: "malformed" | "bad_signature" | "expired" };

export async function verifyToken(token: string, secret: string, now = Date.now()): Promise<VerifyResult> {
  const [body, sig, extra] = token.split(".");
  if (!body || !sig || extra !== undefined) return { ok: false, reason: "malformed" };
  const sigBytes = fromB64url(sig);
  const bodyBytes = fromB64url(body);
  if (!sigBytes || !bodyBytes) return { ok: false, reason: "malformed" };
  // crypto.subtle.verify compares in constant time.
  const valid = await crypto.subtle.verify("HMAC", await hmacKey(secret), sigBytes, enc.encode(body));
  if (!valid) return { ok: false, reason: "bad_signature" };
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(bodyBytes));
  } catch {
    return { ok: false, reason: "malformed" };
  }
  const parsed = TokenClaims.safeParse(claims);
  if (!parsed.success) return { ok: false, reason: "malformed" };
  if (parsed.data.exp * 1000 <= now) return { ok: false, reason: "expired" };
  return { ok: true, claims: parsed.data };
}
