import { ApiError } from "../errors.ts";
import type { Refusal } from "./site-accounts.ts";

/** The 4xx answer of a refusal of the site's accounts object (its RPC carries values, not error classes). */
export function refusal(r: Refusal["refused"]): ApiError {
  if (r === "last_owner")
    return new ApiError(409, "last_owner", "A site keeps at least one owner: make another account owner first");
  if (r === "not_found") return new ApiError(404, "not_found", "No such account");
  if (r === "email_taken") return new ApiError(409, "email_taken", "Another account has this e-mail address");
  if (r === "last_sign_in")
    return new ApiError(
      409,
      "last_sign_in",
      "This is the account's only way to sign in: add a passkey first, or remove the account",
    );
  return new ApiError(409, "conflict", "Not done: the account changed meanwhile");
}
