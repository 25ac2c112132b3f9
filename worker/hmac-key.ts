/**
 * HS256 keys for hono/jwt, imported once per isolate and secret (importKey is async and costs more
 * than the HMAC it sets up). Bounded: identity secrets are per site.
 */
const keys = new Map<string, Promise<CryptoKey>>();
const enc = new TextEncoder();

export function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= 100) keys.clear();
    key = crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    keys.set(secret, key);
  }
  return key;
}
