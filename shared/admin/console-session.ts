import { z } from "zod/mini";
import type { Who } from "./accounts-api.ts";

/**
 * Signing in to the console, for a session cookie: the site key and its bootstrap admin key (owner,
 * until an owner revokes it), or the token of a one-time sign-in link (`/console#sign-in=<token>`,
 * which `npm run deploy` prints for a new site). Accounts sign in with a passkey (accounts-api.ts).
 */
export const ConsoleSignIn = z.union([
  z.object({
    siteKey: z.string().check(z.minLength(1), z.maxLength(200)),
    adminKey: z.string().check(z.minLength(1), z.maxLength(500)),
  }),
  z.object({ signInLink: z.string().check(z.minLength(1), z.maxLength(200)) }),
]);
export type ConsoleSignIn = z.infer<typeof ConsoleSignIn>;

/**
 * What the console learns about its session (sign-in and GET answer this; never the key). `csrf`
 * goes back in the CSRF header on every write; it lives in the page's memory only, and a reload
 * reads it again from GET.
 */
export interface ConsoleSession {
  site: string;
  csrf: string;
  /** ms since the epoch; the cookie stops working then. */
  expiresAt: number;
  /** Who is signed in (an account, or the site's admin key) and its role: the console shows what the role may open. */
  who: Who;
}
