import { z } from "zod/mini";
import { BookingEvents } from "./booking-card.ts";
import { LeadOffered } from "./lead-offer.ts";
import {
  ADVICE_SEVERITIES,
  EMERGENCY_CATEGORIES,
  EMERGENCY_SITUATIONS,
  ESCALATION_SOURCES,
  ESCALATION_VARIANTS,
  EVENT_TYPES,
  MESSAGE_STATUS,
  RATINGS,
  ROLES,
} from "../wire/protocol.ts";
import { ToolCall } from "../chat/chat.ts";
import { FieldValues } from "../stages/field-value.ts";
import { MessageAuthor, TakeoverEvents } from "../takeover/takeover-events.ts";
import { CONSENT_KINDS } from "./consent.ts";

/**
 * The session events' schemas: what the worker validates when the widget appends events. The
 * reducer (session.ts) needs only their types, so the widget's core never loads zod for it.
 */
export const StoredMessage = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(100)),
  role: z.enum(ROLES),
  content: z.string(),
  toolCalls: z.optional(z.array(ToolCall)),
  /** Assistant replies only: the model's thinking, shown collapsed and never as the answer. */
  reasoning: z.optional(z.string()),
  toolCallId: z.optional(z.string()),
  /** Visitor messages only: the photos attached (ids of uploads in the session's R2 folder). */
  photos: z.optional(z.array(z.string().check(z.maxLength(64))).check(z.maxLength(10))),
  /** Assistant replies only: `interrupted` when the stream was cut before the end. */
  status: z.optional(z.enum(MESSAGE_STATUS)),
  /**
   * A staff member's message (takeover): role `assistant`, written by the worker only
   * (the chat route stores no assistant message a client sends, nor a message with a staff id).
   */
  author: z.optional(MessageAuthor),
  at: z.number(),
});
export type StoredMessage = z.infer<typeof StoredMessage>;

const base = { id: z.string().check(z.minLength(1), z.maxLength(120)), at: z.number() };

export const SessionOpened = z.object({
  ...base,
  type: z.literal(EVENT_TYPES.sessionOpened),
  data: z.object({ sessionId: z.string(), siteKey: z.string(), agentId: z.string(), locale: z.optional(z.string()) }),
});
export const MessageAppended = z.object({
  ...base,
  type: z.literal(EVENT_TYPES.messageAppended),
  data: z.object({ message: StoredMessage }),
});
export const TraceStep = z.object({
  ...base,
  type: z.literal(EVENT_TYPES.traceStep),
  data: z.object({
    kind: z.string(),
    name: z.optional(z.string()),
    ms: z.optional(z.number()),
    ok: z.boolean(),
    detail: z.optional(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))),
  }),
});

export type TraceStep = z.infer<typeof TraceStep>;

export const Advice = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(120)),
  title: z.string().check(z.maxLength(120)),
  content: z.string().check(z.maxLength(2000)),
  evidence: z.array(z.string().check(z.maxLength(500))).check(z.maxLength(10)),
  severity: z.enum(ADVICE_SEVERITIES),
  category: z.string().check(z.maxLength(60)),
  /** Photos the card is about (analyze_skin_image): shown as its evidence, loaded with the session's token. */
  photos: z.optional(z.array(z.string().check(z.maxLength(64))).check(z.maxLength(10))),
  /** The assistant message whose tool call recorded it: where the card appears in the conversation. */
  messageId: z.string().check(z.maxLength(100)),
  at: z.number(),
});
export type Advice = z.infer<typeof Advice>;

export const AdviceRecorded = z.object({
  ...base,
  type: z.literal(EVENT_TYPES.adviceRecorded),
  data: z.object({ advice: Advice }),
});

export const ContextUpdated = z.object({
  ...base,
  type: z.literal(EVENT_TYPES.contextUpdated),
  data: z.object({
    stageId: z.string(),
    values: FieldValues,
    /** Who wrote it: the model's extraction tool, the visitor's edit in the panel, an action card. */
    source: z.enum(["model", "visitor", "action"]),
  }),
});

export const StageChanged = z.object({
  ...base,
  type: z.literal(EVENT_TYPES.stageChanged),
  data: z.object({
    from: z.nullable(z.string()),
    /** null: the last stage was completed, the workflow is done. */
    to: z.nullable(z.string()),
    reason: z.enum(["started", "confirmed", "auto", "condition"]),
  }),
});

export const ActionResolved = z.object({
  ...base,
  type: z.literal(EVENT_TYPES.actionResolved),
  data: z.object({ stageId: z.string(), cardId: z.string(), result: FieldValues }),
});

/**
 * Tokens one completion cost, from the provider's usage (streamed usage included); `estimated`
 * when the provider sent none (a cut stream) and they were counted from the text. Written by the
 * worker only — a widget cannot append it — so the session's budget cannot be talked down.
 */
export const UsageRecorded = z.object({
  ...base,
  type: z.literal(EVENT_TYPES.usageRecorded),
  data: z.object({
    replyId: z.string(),
    model: z.string(),
    promptTokens: z.number().check(z.gte(0)),
    completionTokens: z.number().check(z.gte(0)),
    estimated: z.optional(z.boolean()),
  }),
});
export type UsageRecorded = z.infer<typeof UsageRecorded>;

/**
 * The emergency guard's urgent card, as the visitor sees it: worked out on the worker (the site's
 * contacts for the visitor's region, the text in the visitor's language) so the widget, the stored
 * log and the owner's trace show the same thing. Worker only: a browser cannot raise or clear one.
 */
export const Escalation = z.object({
  /** The visitor message that raised it. */
  messageId: z.string().check(z.maxLength(100)),
  category: z.enum(EMERGENCY_CATEGORIES),
  variant: z.enum(ESCALATION_VARIANTS),
  /** Which layer decided: the deterministic rules, the site's classifier or the agent's model. */
  source: z.enum(ESCALATION_SOURCES),
  /** The clinical situation the model named (its escalate_emergency call). */
  situation: z.optional(z.enum(EMERGENCY_SITUATIONS)),
  /** The words that decided it (rules), for the owner's review. */
  matched: z.string().check(z.maxLength(200)),
  region: z.string().check(z.maxLength(8)),
  title: z.string().check(z.maxLength(200)),
  body: z.string().check(z.maxLength(1000)),
  contacts: z
    .array(z.object({ label: z.string().check(z.maxLength(120)), number: z.string().check(z.maxLength(40)) }))
    .check(z.maxLength(6)),
  at: z.number(),
});
export type Escalation = z.infer<typeof Escalation>;

export const EscalationRaised = z.object({
  ...base,
  type: z.literal(EVENT_TYPES.escalationRaised),
  data: z.object({ escalation: Escalation }),
});
export type EscalationRaised = z.infer<typeof EscalationRaised>;

/** The visitor's rating of one assistant reply; a later rating of the same reply replaces it. */
export const FeedbackInput = z.object({
  messageId: z.string().check(z.minLength(1), z.maxLength(100)),
  rating: z.enum(RATINGS),
  comment: z.optional(z.string().check(z.maxLength(1000))),
});
export type FeedbackInput = z.infer<typeof FeedbackInput>;

export const FeedbackGiven = z.object({
  ...base,
  type: z.literal(EVENT_TYPES.feedbackGiven),
  data: FeedbackInput,
});

/** The visitor agreed to a notice's version; written by the worker only (a browser's copy is refused, 403). */
export const ConsentGiven = z.object({
  ...base,
  type: z.literal(EVENT_TYPES.consentGiven),
  data: z.object({ kind: z.enum(CONSENT_KINDS), version: z.string().check(z.maxLength(40)) }),
});

export const SessionEvent = z.discriminatedUnion("type", [
  SessionOpened,
  MessageAppended,
  AdviceRecorded,
  TraceStep,
  ContextUpdated,
  StageChanged,
  ActionResolved,
  UsageRecorded,
  EscalationRaised,
  FeedbackGiven,
  ConsentGiven,
  ...TakeoverEvents,
  ...BookingEvents,
  LeadOffered,
]);

export type SessionEvent = z.infer<typeof SessionEvent>;
