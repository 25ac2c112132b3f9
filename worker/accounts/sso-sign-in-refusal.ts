import { ApiError } from "../errors.ts";
import type { SsoRefused } from "./sso-accounts.ts";

/** Why the site's accounts found no account for the person the provider vouched for. */
export function signInRefusal(why: SsoRefused, email: string): ApiError {
  if (why === "unverified")
    return new ApiError(
      403,
      "sso_unverified",
      `An account has ${email}, but the identity provider does not say the address is verified: ` +
        "it is not linked to that account by the address alone (ask an owner, or verify it at the provider)",
    );
  if (why === "linked_elsewhere")
    return new ApiError(
      409,
      "sso_link",
      `The account with ${email} is linked to another user of this identity provider: an owner unlinks it first`,
    );
  if (why === "ambiguous")
    return new ApiError(409, "sso_link", `Several accounts have ${email}: an owner keeps it on one of them`);
  if (why === "removed")
    return new ApiError(403, "sso_removed", "An owner removed your account on this site: ask them for an invitation");
  return new ApiError(403, "sso_role", "Your identity provider's groups give you no role on this site: ask an owner");
}
