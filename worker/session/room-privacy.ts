import type { SiteConfig } from "../../shared/config/agent-config.ts";
import type { SessionSummary } from "../../shared/session/session-summary.ts";
import { redactText } from "../privacy/redact-text.ts";

/**
 * What a conversation's site chose for its data when the conversation was opened, kept in its object:
 * a site's change of setting applies to the conversations opened after it, and one opened before these
 * settings existed has neither (its site's behaviour as it was).
 */
export interface RoomPrivacy {
  /** Personal details in trace steps, owner notes and the index's row become typed placeholders. */
  redact: boolean;
  /** Keep nothing: the object erases itself this many minutes after the last message; null: it is kept. */
  keepMinutes: number | null;
}

export const NO_PRIVACY: RoomPrivacy = { redact: false, keepMinutes: null };

export const privacyOf = (site: Pick<SiteConfig, "redactTraces" | "keepNothingMinutes">): RoomPrivacy => ({
  redact: site.redactTraces === true,
  keepMinutes: site.keepNothingMinutes ?? null,
});

const PRIVACY = "privacy";
const LAST_MESSAGE = "lastMessageAt";

/** The object's record of its privacy and of its last message's time (the worker's clock), in its storage. */
export class PrivacyRecord {
  constructor(private readonly kv: SyncKvStorage) {}

  get value(): RoomPrivacy {
    return this.kv.get<RoomPrivacy>(PRIVACY) ?? NO_PRIVACY;
  }

  set(privacy: RoomPrivacy): void {
    if (privacy.redact || privacy.keepMinutes !== null) this.kv.put(PRIVACY, privacy);
  }

  messageAt(now: number): void {
    this.kv.put(LAST_MESSAGE, now);
  }

  /** When a keep-nothing conversation is erased: its last message's time and the site's minutes; else null. */
  erasesAt(): number | null {
    const { keepMinutes } = this.value;
    const last = this.kv.get<number>(LAST_MESSAGE);
    return keepMinutes === null || last === undefined ? null : last + keepMinutes * 60_000;
  }
}

/**
 * The conversation's row as the site's index gets it: redacted (the first message, a request's reason),
 * or in keep-nothing mode with no text at all, only the counts, since the index outlives the conversation.
 */
export function indexedSummary(summary: SessionSummary, privacy: RoomPrivacy): SessionSummary {
  if (!privacy.redact && privacy.keepMinutes === null) return summary;
  const text = (t: string) => (privacy.keepMinutes !== null ? "" : redactText(t));
  const request = summary.personRequest;
  return {
    ...summary,
    firstText: text(summary.firstText),
    ...(request?.reason !== undefined ? { personRequest: { ...request, reason: text(request.reason) } } : {}),
  };
}
