import { z } from "zod/mini";
import { LocalizedText } from "../config/localized-text.ts";

/**
 * Consent a visitor gives before the conversation (`chat`) and before their first photo (`photo`):
 * each has its own text and version. The worker records the agreement (`consent.given`, its own time)
 * through the consent route or the session's opening; a browser never writes it as an event.
 */
export const CONSENT_KINDS = ["chat", "photo"] as const;
export type ConsentKind = (typeof CONSENT_KINDS)[number];

/** Names one text of a notice ("2026-03", "4"): a new version is asked again, also in an open conversation. */
export const ConsentVersion = z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/));

const Words = z.string().check(z.minLength(1), z.maxLength(2000));

/** A site's or an agent's consent before the first message (the agent's wins where both have one). */
export const ConsentConfig = z.object({
  /** What the visitor agrees to, in the site's own words (en and zh-CN). */
  text: z.object({ en: Words, "zh-CN": Words }),
  /** The site's privacy notice, linked beside the text. */
  privacyUrl: z.string().check(z.maxLength(500), z.regex(/^https:\/\/[^\s"'<>]+$/)),
  version: ConsentVersion,
});
export type ConsentConfig = z.infer<typeof ConsentConfig>;

/** What the widget shows for one kind: the text, the version it agrees to, the privacy notice. */
export interface ConsentNotice {
  kind: ConsentKind;
  version: string;
  text: LocalizedText;
  privacyUrl?: string;
}

/** The consent route's body: a version that is not the agent's current one is refused (409 consent_version). */
export const ConsentInput = z.object({
  kind: z.enum(CONSENT_KINDS),
  version: z.string().check(z.minLength(1), z.maxLength(40)),
});
export type ConsentInput = z.infer<typeof ConsentInput>;

/** What the session keeps of each agreement: the version and the worker's time. */
export type ConsentRecord = Partial<Record<ConsentKind, { version: string; at: number }>>;
