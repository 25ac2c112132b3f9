/**
 * Wire names shared by the widget and the worker, declared once (habit from cloudflare/agents
 * protocol.ts). Types are derived from these constants; no literal strings elsewhere.
 */
export const HEADERS = {
  siteKey: "x-parley-site-key",
  /** A site owner's admin key, for the admin routes (sessions and traces of the site). */
  adminKey: "x-parley-admin-key",
  /** The console's CSRF token on writes: must equal the signed session cookie's `csrf` claim. */
  csrf: "x-parley-csrf",
  replyId: "x-parley-reply-id",
  sessionId: "x-parley-session-id",
  demoModel: "x-parley-demo-model",
} as const;

export const EVENT_TYPES = {
  sessionOpened: "session.opened",
  messageAppended: "message.appended",
  adviceRecorded: "advice.recorded",
  traceStep: "trace.step",
  contextUpdated: "context.updated",
  stageChanged: "stage.changed",
  actionResolved: "action.resolved",
  /** The provider's token usage of one completion (worker only): what the token budgets count. */
  usageRecorded: "usage.recorded",
  /** The emergency guard's verdict on a visitor message (worker only): the urgent card pinned in the panel. */
  escalationRaised: "escalation.raised",
  /** A visitor rated an assistant reply: thumbs up or down, with an optional comment. */
  feedbackGiven: "feedback.given",
  /** Takeover, worker only: the visitor or the agent asked for a person from the site's staff. */
  personRequested: "person.requested",
  /** Nobody could come (no staff on the console's Live page, or outside the site's hours): the contact form. */
  personUnavailable: "person.unavailable",
  /** A staff member took the conversation over: the agent stops, their messages go to the visitor. */
  staffJoined: "staff.joined",
  /** The staff member gave the conversation back to the agent, which then sees everything said. */
  staffHandedBack: "staff.handed_back",
  /** The visitor left a way to be contacted (nobody was available): the owner reads it in Conversations. */
  contactLeft: "contact.left",
  /** Booking, worker only: find_slots offered times (a slots card), a visit was booked, or cancelled. */
  bookingOffered: "booking.offered",
  bookingCreated: "booking.created",
  bookingCancelled: "booking.cancelled",
  /**
   * A lead card, worker only: the agent raised its current stage's lead card in the chat (offer_lead_card);
   * what the visitor sends in it is the card's action (`action.resolved`), with their consent.
   */
  leadOffered: "lead.offered",
  /** The visitor agreed to a consent notice (worker only, through the consent route): its kind and version. */
  consentGiven: "consent.given",
} as const;
export type EventType = (typeof EVENT_TYPES)[keyof typeof EVENT_TYPES];

export const ROLES = ["user", "assistant", "tool", "system"] as const;
export type Role = (typeof ROLES)[number];

/** How a stored assistant message ended: streamed to the end, or cut (client gone, upstream dropped). */
export const MESSAGE_STATUS = ["complete", "interrupted"] as const;
export type MessageStatus = (typeof MESSAGE_STATUS)[number];

/** Limits both sides agree on; the worker enforces them, the widget uses them to warn early. */
export const LIMITS = {
  maxBodyBytes: 256 * 1024,
  maxMessages: 200,
  maxMessageChars: 16_000,
  sessionTtlSeconds: 7 * 24 * 3600,
} as const;

export const RATINGS = ["up", "down"] as const;
export type Rating = (typeof RATINGS)[number];

/** How serious an advice card is; the card's colour and icon follow it. */
export const ADVICE_SEVERITIES = ["info", "caution", "urgent"] as const;
export type AdviceSeverity = (typeof ADVICE_SEVERITIES)[number];

/**
 * What the emergency guard recognises, by the first step the card gives. `self_harm` gets the crisis
 * variant of the card: a listening tone and the crisis line, no first-aid steps. The rules name the
 * narrow categories; `circulation`, `neuro`, `drug_reaction`, `child` and `heat_gas` are the wider
 * situations the model's escalate_emergency tool names where no narrower one is known.
 */
export const EMERGENCY_CATEGORIES = [
  "cardiac",
  "stroke",
  "breathing",
  "bleeding",
  "anaphylaxis",
  "poisoning",
  "collapse",
  "self_harm",
  "harm_to_others",
  "seizure",
  "sepsis",
  "skin_reaction",
  "burn",
  "obstetric",
  "heat",
  "gas",
  "cold",
  "vascular",
  "circulation",
  "neuro",
  "drug_reaction",
  "child",
  "heat_gas",
] as const;
export type EmergencyCategory = (typeof EMERGENCY_CATEGORIES)[number];
export const ESCALATION_VARIANTS = ["emergency", "crisis"] as const;
export type EscalationVariant = (typeof ESCALATION_VARIANTS)[number];

/**
 * The clinical situations the agent's model names when it calls escalate_emergency: the same
 * grouping as the triage red-flag lists (airway and breathing, circulation and bleeding, ...).
 */
export const EMERGENCY_SITUATIONS = [
  "airway",
  "circulation",
  "neuro",
  "sepsis",
  "drug_reaction",
  "burns",
  "poisoning",
  "self_harm",
  "obstetric",
  "child",
  "heat_gas",
] as const;
export type EmergencySituation = (typeof EMERGENCY_SITUATIONS)[number];

/** Which layer raised an escalation: the deterministic rules, the site's classifier, or the agent's model. */
export const ESCALATION_SOURCES = ["rules", "classifier", "model"] as const;
export type EscalationSource = (typeof ESCALATION_SOURCES)[number];

/**
 * Parley's own field in a streamed chunk or a completion (`{ choices: [], parley: { event } }`):
 * OpenAI clients skip a chunk with no choices (as they do the usage chunk), the widget reads it.
 */
export const STREAM_EXTENSION = "parley" as const;

/** Who asked for a person: the visitor's button, or the agent's `ask_for_person` tool. */
export const PERSON_REQUESTERS = ["visitor", "agent"] as const;
export type PersonRequester = (typeof PERSON_REQUESTERS)[number];
/**
 * Why nobody came: no staff member has the console's Live page open, the site is closed now, or the
 * visitor waited in the queue longer than the site's maximum wait.
 */
export const UNAVAILABLE_REASONS = ["no_staff", "outside_hours", "waited_too_long"] as const;
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];
