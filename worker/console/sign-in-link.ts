import { z } from "zod/mini";

/**
 * A one-time sign-in link to the console (`/console#sign-in=<token>`), as `npm run deploy` makes one for
 * the owner of a site it creates. KV holds only the token's SHA-256 (`console-link:<hex>`), with the
 * site it opens and when it expires; the site's own Durable Object records a link once used, so a
 * second use is refused everywhere at once (KV may serve a deleted key for up to a minute).
 */
export const SIGN_IN_LINK_SECONDS = 86_400;

export const SignInLinkEntry = z.object({ site: z.string().check(z.minLength(8)), expiresAt: z.number() });
export type SignInLinkEntry = z.infer<typeof SignInLinkEntry>;

export const signInLinkKey = (digestHex: string) => `console-link:${digestHex}`;

/** The link's token: 32 random bytes, base64url (what a URL fragment carries as it is). */
export const SIGN_IN_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export async function tokenDigest(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The console's address that signs its owner in once: the token in the fragment, which no server or log sees. */
export const signInLinkUrl = (workerUrl: string, token: string) =>
  `${workerUrl.replace(/\/+$/, "")}/console#sign-in=${token}`;
