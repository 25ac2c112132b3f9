import { EVENT_TYPES } from "../wire/protocol.ts";
import { foldBooking, type BookingCard } from "./booking-fold.ts";
import type { Advice, Escalation, FeedbackInput, SessionEvent, StoredMessage, TraceStep } from "./session-events.ts";
import { AGENT, foldTakeover, type TakeoverState } from "../takeover/takeover-state.ts";
import type { ConsentRecord } from "./consent.ts";
import type { LeadOffer } from "./lead-offer.ts";
import type { FieldValues } from "../stages/field-value.ts";

/**
 * A session is an append-only list of typed events; its state is their fold by `reduceSession`.
 * The widget folds its own copy with the same reducer, the SessionRoom folds the authoritative
 * one, so both sides agree by construction.
 */
export interface SessionState extends TakeoverState {
  sessionId: string;
  siteKey: string;
  agentId: string;
  locale?: string;
  /** When the session was opened (ms); absent in states folded before it was recorded. */
  openedAt?: number;
  messages: StoredMessage[];
  advice: Advice[];
  /** The emergency guard's urgent cards, oldest first; the panel pins the latest. */
  escalations: Escalation[];
  /** Booking in the chat: the slots cards find_slots offered, each with the visit booked from it. */
  bookings: BookingCard[];
  /** Lead cards the agent raised in the chat (offer_lead_card), oldest first; absent in older states. */
  leads?: LeadOffer[];
  /** Stage workflow: the current stage (null before it starts or after the last one), those completed. */
  stage: { current: string | null; completed: string[]; done: boolean };
  /** Collected values by stage id, then field key. */
  context: Record<string, FieldValues>;
  /** Moves with every context change; an edit based on an older version is refused (409). */
  contextVersion: number;
  actions: Array<{ stageId: string; cardId: string; result: FieldValues; at: number }>;
  trace: Array<TraceStep["data"] & { id: string; at: number }>;
  /** Provider tokens this session has cost so far (all completions, retries and cut ones included). */
  usage: { promptTokens: number; completionTokens: number; totalTokens: number };
  /** The visitor's ratings by assistant message id (the latest rating of each reply). */
  feedback: Record<string, Omit<FeedbackInput, "messageId"> & { at: number }>;
  /** The consent notices the visitor agreed to, by kind: the latest version and when (absent: none asked). */
  consent?: ConsentRecord;
  /** Number of events folded; moves with every append. */
  version: number;
}

export function emptySession(): SessionState {
  return {
    sessionId: "",
    siteKey: "",
    agentId: "",
    messages: [],
    advice: [],
    escalations: [],
    bookings: [],
    trace: [],
    version: 0,
    stage: { current: null, completed: [], done: false },
    context: {},
    contextVersion: 0,
    actions: [],
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    feedback: {},
    handler: AGENT,
    personRequest: null,
    contacts: [],
  };
}

/** Pure: never mutates `state`. A message event whose id is already present replaces that message. */
export function reduceSession(state: SessionState, event: SessionEvent): SessionState {
  const version = state.version + 1;
  switch (event.type) {
    case EVENT_TYPES.sessionOpened:
      return { ...state, ...event.data, openedAt: event.at, version };
    case EVENT_TYPES.messageAppended: {
      const msg = event.data.message;
      const at = state.messages.findIndex((m) => m.id === msg.id);
      const messages = at === -1 ? [...state.messages, msg] : state.messages.map((m, i) => (i === at ? msg : m));
      return { ...state, messages, version };
    }
    case EVENT_TYPES.adviceRecorded: {
      const advice = event.data.advice;
      if (state.advice.some((a) => a.id === advice.id)) return { ...state, version };
      return { ...state, advice: [...state.advice, advice], version };
    }
    case EVENT_TYPES.escalationRaised: {
      // `?? []`: a state restored from an older worker may lack `escalations`.
      const escalations = state.escalations ?? [];
      const e = event.data.escalation;
      if (escalations.some((x) => x.messageId === e.messageId)) return { ...state, version };
      return { ...state, escalations: [...escalations, e], version };
    }
    case EVENT_TYPES.bookingOffered:
    case EVENT_TYPES.bookingCreated:
    case EVENT_TYPES.bookingCancelled:
      // `?? []`: a state restored from an older worker may lack `bookings`.
      return { ...state, bookings: foldBooking(state.bookings ?? [], event), version };
    case EVENT_TYPES.leadOffered:
      return { ...state, leads: [...(state.leads ?? []), { ...event.data, at: event.at }], version };
    case EVENT_TYPES.contextUpdated: {
      const { stageId, values } = event.data;
      return {
        ...state,
        context: { ...state.context, [stageId]: { ...state.context[stageId], ...values } },
        contextVersion: state.contextVersion + 1,
        version,
      };
    }
    case EVENT_TYPES.stageChanged: {
      const { from, to, reason } = event.data;
      const completed =
        from && reason !== "started" && !state.stage.completed.includes(from)
          ? [...state.stage.completed, from]
          : state.stage.completed;
      return { ...state, stage: { current: to, completed, done: to === null && completed.length > 0 }, version };
    }
    case EVENT_TYPES.actionResolved:
      return { ...state, actions: [...state.actions, { ...event.data, at: event.at }], version };
    case EVENT_TYPES.traceStep:
      return { ...state, trace: [...state.trace, { ...event.data, id: event.id, at: event.at }], version };
    case EVENT_TYPES.usageRecorded: {
      // `?? 0`: a state restored from an older worker may lack `usage`.
      const { promptTokens, completionTokens } = event.data;
      const u = state.usage ?? emptySession().usage;
      const usage = {
        promptTokens: u.promptTokens + promptTokens,
        completionTokens: u.completionTokens + completionTokens,
        totalTokens: u.totalTokens + promptTokens + completionTokens,
      };
      return { ...state, usage, version };
    }
    case EVENT_TYPES.feedbackGiven: {
      const { messageId, ...rating } = event.data;
      return { ...state, feedback: { ...state.feedback, [messageId]: { ...rating, at: event.at } }, version };
    }
    case EVENT_TYPES.consentGiven: {
      const { kind, version: v } = event.data;
      return { ...state, consent: { ...state.consent, [kind]: { version: v, at: event.at } }, version };
    }
    default: {
      // Takeover: who handles the conversation, the request for a person, contacts left.
      const takeover = foldTakeover(state, event);
      return takeover ? { ...state, ...takeover, version } : { ...state, version };
    }
  }
}

export function foldSession(events: readonly SessionEvent[], from: SessionState = emptySession()): SessionState {
  return events.reduce(reduceSession, from);
}
