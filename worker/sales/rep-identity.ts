import { verify } from "hono/jwt";
import { JwtTokenExpired, JwtTokenSignatureMismatched } from "hono/utils/jwt/types";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import { hmacKey } from "../hmac-key.ts";

/**
 * The host's signed identity of its signed-in rep, as Intercom's identity verification does it: the
 * host's backend signs `{ sub: repId, site: siteKey, exp }` (a JWT, HS256) with a per-site secret the
 * worker holds as a secret binding; the browser only carries it. Verified once, at session open,
 * and the rep's id is bound into the session token, so no later call can name another rep.
 */

const REASONS = {
  forged: "its signature does not match the site's identity secret",
  expired: "it has expired; the host must sign a fresh one",
  malformed: 'it is not a JWT (HS256) with "sub", "site" and "exp"',
  other_site: "it was signed for another site",
} as const;

export type IdentityCheck = { ok: true; rep: string } | { ok: false; reason: keyof typeof REASONS };

/** Pure check of one identity token against the secret and the site it must name. */
export async function checkRepIdentity(token: string, secret: string, siteKey: string): Promise<IdentityCheck> {
  const key = await hmacKey(secret);
  let payload: Record<string, unknown>;
  try {
    payload = await verify(token, key, "HS256");
  } catch (err) {
    if (err instanceof JwtTokenExpired) return { ok: false, reason: "expired" };
    if (err instanceof JwtTokenSignatureMismatched) return { ok: false, reason: "forged" };
    return { ok: false, reason: "malformed" };
  }
  const { sub, site, exp } = payload;
  // An identity that never expires would let a leaked one act as the rep forever: exp is required.
  if (typeof sub !== "string" || !sub || sub.length > 200 || typeof exp !== "number")
    return { ok: false, reason: "malformed" };
  if (site !== siteKey) return { ok: false, reason: "other_site" };
  return { ok: true, rep: sub };
}

/** The secret a site's identities are signed with: a worker secret, or in demo mode the demo's own. */
function identitySecret(env: Env, name: string): string | undefined {
  const value = (env as unknown as Record<string, unknown>)[name] ?? env.demo?.secrets[name];
  return typeof value === "string" && value.length >= 16 ? value : undefined;
}

/**
 * The rep of a session being opened: verified from the host's signed identity when the site verifies
 * identities, else none. A session without a rep opens as before; profile_reader then refuses.
 */
export async function repOfIdentity(env: Env, site: SiteConfig, identity: string | undefined) {
  const config = site.safety.identity;
  // Without safety.identity, or when it is no JWT (a plain visitor id, as the widget's identity
  // option has always taken), it only keys the widget's stored conversation: a session with no rep.
  if (identity === undefined || !config || identity.split(".").length !== 3) return undefined;
  const secret = identitySecret(env, config.secretName);
  if (!secret)
    throw new ApiError(503, "misconfigured", `Worker secret ${config.secretName} is not set (at least 16 characters)`);
  const check = await checkRepIdentity(identity, secret, site.siteKey);
  if (!check.ok) throw new ApiError(401, "unauthorized", `The signed identity was refused: ${REASONS[check.reason]}`);
  return check.rep;
}
