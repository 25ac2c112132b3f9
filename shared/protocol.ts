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
 * What the emergency guard recognises (issue #13). `self_harm` gets the crisis variant of the card:
 * a listening tone and the crisis line, no first-aid steps.
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
] as const;
export type EmergencyCategory = (typeof EMERGENCY_CATEGORIES)[number];
export const ESCALATION_VARIANTS = ["emergency", "crisis"] as const;
export type EscalationVariant = (typeof ESCALATION_VARIANTS)[number];

/**
 * Parley's own field in a streamed chunk or a completion (`{ choices: [], parley: { event } }`):
 * OpenAI clients skip a chunk with no choices (as they do the usage chunk), the widget reads it.
 */
export const STREAM_EXTENSION = "parley" as const;

/** Tool names, for code that must not load the tools' schemas (the widget's core). */
export const TOOL_NAMES = {
  recordAdvice: "record_advice",
  askFollowup: "ask_followup",
  sampleSize: "sample_size",
  recordStageData: "record_stage_data",
  knowledgeSearch: "knowledge_search",
  webSearch: "web_search",
  classifyIntent: "classify_intent",
  ruleVerdict: "rule_verdict",
  suggestStrategyUpdate: "suggest_strategy_update",
} as const;
