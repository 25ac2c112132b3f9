const enc = new TextEncoder();

/** Hex SHA-256: what the site's object keeps of an invitation's secret or an admin key, never the secret. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", enc.encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A random base64url string of `bytes` bytes: ids (9 bytes) and secrets (32 bytes). */
export function randomToken(bytes: number): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...raw))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** A random lower-case hex string of `bytes` bytes (a named key's id: no `_`, which separates the key's parts). */
export const randomHex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");

/** Named admin keys: `pk_<id>_<secret>`; the id finds the row, the secret's digest must match it. */
export const KEY_PREFIX = "pk_";
export function parseNamedKey(key: string): { id: string; secret: string } | null {
  const m = /^pk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/.exec(key);
  return m ? { id: m[1], secret: m[2] } : null;
}
