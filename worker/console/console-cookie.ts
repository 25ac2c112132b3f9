import { sign, verify } from "hono/jwt";
import { z } from "zod/mini";
import { hmacKey } from "../hmac-key.ts";

/**
 * The console's session cookie: a JWT (HS256, hono/jwt) with the site, a CSRF token and a session
 * id that sign-out revokes server-side (worker/site-index). `__Host-` makes the browser refuse it
 * unless Secure, Path=/ and without Domain, so no subdomain can set or shadow it.
 */
export const CONSOLE_COOKIE = "parley-console";
export const CONSOLE_COOKIE_FULL = `__Host-${CONSOLE_COOKIE}`;
/** Short-lived: a shift of work; the owner signs in again after. */
export const CONSOLE_SESSION_SECONDS = 2 * 3600;

export const ConsoleClaims = z.object({
  site: z.string(),
  /** Double-submit CSRF token: writes carry it in a header the page can only learn from a same-origin read. */
  csrf: z.string(),
  /** The console session's id (its row in the site's index, deleted at sign-out). */
  cid: z.string(),
  /** The start of the admin key's digest at a sign-in with it: changing the key ends those sessions ("" otherwise). */
  kh: z.string(),
  /** Who signed in (`account:<id>` or `bootstrap`): names a refused cookie in the audit trail. */
  sub: z.optional(z.string()),
  exp: z.number(),
});
export type ConsoleClaims = z.infer<typeof ConsoleClaims>;

// A key of its own (derived from SESSION_SECRET), so a visitor's session token is never a console cookie.
const consoleKey = (secret: string) => hmacKey(`parley-console:${secret}`);

export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_");
}

export async function signConsoleCookie(claims: ConsoleClaims, secret: string): Promise<string> {
  return sign(claims, await consoleKey(secret), "HS256");
}

/** The claims of a valid, unexpired cookie, or null (bad signature, expired, malformed alike). */
export async function verifyConsoleCookie(token: string, secret: string): Promise<ConsoleClaims | null> {
  try {
    const parsed = ConsoleClaims.safeParse(await verify(token, await consoleKey(secret), "HS256"));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
