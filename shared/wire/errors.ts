import { z } from "zod/mini";
import { CONSENT_KINDS } from "../session/consent.ts";
import { LocalizedText } from "../config/localized-text.ts";

/** Every error code the proxy can answer with; the widget maps them to visitor-facing text. */
export const ERROR_CODES = [
  "bad_request",
  "invalid_json",
  "validation_failed",
  "payload_too_large",
  /** A photo upload that is not a JPEG, PNG, WebP or still GIF, judged by its bytes. */
  "unsupported_media_type",
  /** A photo that still carries Exif, XMP or other metadata (the widget removes it before upload). */
  "photo_metadata",
  /** The agent takes no photos (not enabled, or its model cannot read images). */
  "photos_unavailable",
  "not_found",
  "method_not_allowed",
  "unauthorized",
  "forbidden",
  "forbidden_origin",
  /** The caller's role does not grant what the route needs (shared/wire/route-permissions.ts). */
  "role_forbidden",
  /** The step asks for a passkey sign-in (or the admin key) within the last 10 minutes. */
  "reauth_required",
  /** The route is for an account's own things (its passkeys): an admin key has none. */
  "account_required",
  /** The site would be left without an owner. */
  "last_owner",
  /** The account would be left with no way to sign in (no passkey, no single sign-on identity). */
  "last_sign_in",
  /** Another account has this e-mail (single sign-on links an account by it, so one account per address). */
  "email_taken",
  /** An invitation link used, expired or revoked. */
  "invitation_used",
  "invitation_expired",
  "invitation_revoked",
  /** A passkey this site does not know, a WebAuthn answer that does not verify, a challenge used or expired. */
  "passkey_unknown",
  "passkey_invalid",
  "challenge_invalid",
  /** The passkey's signature counter went backwards: a cloned authenticator, refused. */
  "passkey_counter",
  /** Single sign-on: the site has none; the answer came back to another browser, or twice, or late. */
  "sso_off",
  "sso_state",
  /** The identity provider said no (its `error`), or refused to give tokens for the code (expired, PKCE, client). */
  "sso_denied",
  "sso_code",
  /** The id token: a bad signature or shape, another issuer's, another sign-in's nonce. */
  "sso_token",
  "sso_issuer",
  "sso_nonce",
  /** The person: no verified e-mail, a domain the site does not allow, no role to give them. */
  "sso_email",
  "sso_domain",
  "sso_role",
  /**
   * Linking: an account has the e-mail, but the provider does not say it is verified (`sso_unverified`);
   * that account is linked to another user of the provider, or several accounts have the e-mail
   * (`sso_link`); an owner removed the identity's account (`sso_removed`).
   */
  "sso_unverified",
  "sso_link",
  "sso_removed",
  /** The provider's userinfo endpoint did not answer, or answered for another user than the id token's. */
  "sso_userinfo",
  /** The identity provider did not answer (discovery, keys, tokens), or answered nonsense. */
  "sso_unreachable",
  "unknown_site",
  "unknown_agent",
  "model_not_allowed",
  "rate_limited",
  "budget_exceeded",
  "conflict",
  /** A person from the site's staff handles the conversation: no model turn (send to the staff route). */
  "taken_over",
  /** Takeover: another staff member already handles this conversation. */
  "already_taken",
  /** Takeover: the step needs a person handling the conversation (staff: you), and none does. */
  "not_taken_over",
  /** The site has not enabled handing conversations to a person. */
  "takeover_disabled",
  /** The agent asks the visitor's consent first (or again, for a new version): the body carries the notice. */
  "consent_required",
  /** A consent version that is not the notice's current one (the body carries the current notice). */
  "consent_version",
  "upstream_error",
  "upstream_unreachable",
  "upstream_timeout",
  /** The provider is rate limiting this site (its 429, after retries and fallbacks); Retry-After says when. */
  "upstream_busy",
  "tool_failed",
  /** Booking: the calendar refused for now (its 429) or did not answer well (5xx, a body not in its shape). */
  "calendar_busy",
  "calendar_unavailable",
  /** Booking: a slot that has already begun, or one that is not a slot of the calendar. */
  "slot_unavailable",
  "misconfigured",
  /** An address the site configured could not be checked: the DNS resolver did not answer (the request is not sent). */
  "dns_unavailable",
  "provider_not_configured",
  "internal",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    /** Upstream provider's HTTP status, when the error came from the provider. */
    status: z.optional(z.number()),
    /** Field-level issues for validation errors. */
    issues: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
    /** consent_required and consent_version: the notice to show (shared/session/consent.ts). */
    consent: z.optional(
      z.object({
        kind: z.enum(CONSENT_KINDS),
        version: z.string(),
        text: LocalizedText,
        privacyUrl: z.optional(z.string()),
      }),
    ),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export function errorBody(code: ErrorCode, message: string, extra: Partial<ErrorBody["error"]> = {}): ErrorBody {
  return { error: { code, message, ...extra } };
}
