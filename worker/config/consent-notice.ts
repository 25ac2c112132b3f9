import type { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import type { ConsentKind, ConsentNotice } from "../../shared/session/consent.ts";
import { ApiError } from "../errors.ts";

/** The consent asked before the first message: the agent's own, else the site's; null when neither asks. */
export function chatConsent(site: SiteConfig, agent: AgentConfig): ConsentNotice | null {
  const c = agent.consent ?? site.consent;
  return c ? { kind: "chat", version: c.version, text: c.text, privacyUrl: c.privacyUrl } : null;
}

/** The consent asked before the first photo (agents that take photos), with the chat notice's privacy link. */
export function photoConsent(site: SiteConfig, agent: AgentConfig): ConsentNotice | null {
  const photos = agent.photos;
  if (!photos?.enabled) return null;
  const privacyUrl = (agent.consent ?? site.consent)?.privacyUrl;
  return { kind: "photo", version: photos.consentVersion, text: photos.consent, ...(privacyUrl ? { privacyUrl } : {}) };
}

export function consentNotice(kind: ConsentKind, site: SiteConfig, agent: AgentConfig): ConsentNotice | null {
  return kind === "chat" ? chatConsent(site, agent) : photoConsent(site, agent);
}

/** What a route answers before the visitor agreed to the notice's current version: the notice to show. */
export function consentRequired(notice: ConsentNotice): ApiError {
  const what = notice.kind === "chat" ? "this conversation" : "photos";
  return new ApiError(
    403,
    "consent_required",
    `The visitor's consent (${notice.kind}, version ${notice.version}) comes first for ${what}: ` +
      `show the notice and send the agreement to POST /v1/sessions/:id/consent`,
    { consent: notice },
  );
}

/** A version that is not the notice's current one (an old or made-up version agrees to nothing). */
export function consentVersionRefused(notice: ConsentNotice, asked: string): ApiError {
  return new ApiError(
    409,
    "consent_version",
    `Consent version ${JSON.stringify(asked.slice(0, 40))} is not this agent's ${notice.kind} notice ` +
      `(version ${notice.version} is): show the current text and ask again`,
    { consent: notice },
  );
}
