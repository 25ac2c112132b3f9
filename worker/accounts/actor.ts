import type { Role } from "../../shared/admin/roles.ts";
import type { Who } from "../../shared/admin/accounts-api.ts";

/**
 * Who an admin request is, worked out by the admin middleware (worker/middleware/admin-key.ts): an
 * account's console session, a named admin key, or the site's bootstrap admin key (its original
 * `adminKeySha256`, owner until revoked). `authAt` is when its credential was last shown (a passkey,
 * the key typed at sign-in); a key sent with every request is shown every time.
 */
export interface Actor extends Who {
  authAt: number;
  /** The console session's id, when the request came with the console's cookie. */
  sessionId?: string;
}

/** The name the bootstrap admin key goes by: in the audit trail, and to a visitor in a takeover. */
export const BOOTSTRAP_NAME = "Owner";

export const bootstrapActor = (authAt: number, sessionId?: string): Actor => ({
  kind: "bootstrap",
  id: "bootstrap",
  name: BOOTSTRAP_NAME,
  role: "owner" satisfies Role,
  authAt,
  ...(sessionId ? { sessionId } : {}),
});

export const whoOf = (a: Actor): Who => ({ kind: a.kind, id: a.id, name: a.name, role: a.role });
