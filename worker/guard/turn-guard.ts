import type { AgentConfig, SiteConfig } from "../../shared/config/agent-config.ts";
import { type ChatMessage } from "../../shared/chat/chat.ts";
import { escalationEvent } from "../../shared/session/events.ts";
import type { EmergencyRegion, SiteSafety } from "../../shared/config/guard-config.ts";
import { traceEvent, traceEventId } from "../../shared/chat/step-events.ts";
import {
  STREAM_EXTENSION,
  type EmergencyCategory,
  type EmergencySituation,
  type EscalationSource,
} from "../../shared/wire/protocol.ts";
import { contactsFor, visitorRegion, type VisitorPlace } from "./emergency-contacts.ts";
import { checkEmergency, variantOf } from "./emergency-guard.ts";
import { cardLanguage, escalationAsText, escalationText, modelNote, type Lang } from "./escalation-text.ts";
import { contentText } from "../../shared/chat/message-content.ts";
import type { Escalation, SessionEvent } from "../../shared/session/session-events.ts";

/**
 * What any layer needs to raise an escalation for the request's latest visitor message: plain
 * data, so the session's object can raise one later in the turn (the classifier's, the model's).
 */
export interface EscalationContext {
  messageId: string;
  /** The visitor's message, for the classifier. */
  text: string;
  language: Lang;
  region: EmergencyRegion;
  /**
   * The client reads Parley's stream extension (its request carries `parley`, as the widget's do);
   * any other client is sent the escalation as the reply's first text too.
   */
  extension: boolean;
}

export interface TurnGuardInput {
  agent: AgentConfig;
  site: SiteConfig;
  messages: readonly ChatMessage[];
  /** The visitor's country and languages, from the request. */
  place: Omit<VisitorPlace, "language">;
  extension: boolean;
}

export interface Raised {
  /** The escalation and its trace step (or a layer's own trace step); empty when nothing was raised. */
  events: SessionEvent[];
  escalation: Escalation | null;
  /** Appended to the provider's system prompt. */
  note: string | null;
}

export interface TurnGuardResult extends Raised {
  /** Null when the request has no visitor message. */
  context: EscalationContext | null;
}

/** What a layer decided; `matched` is the words that decided it (the rules' match, the model's quote). */
export interface Decision {
  category: EmergencyCategory;
  source: EscalationSource;
  matched: string;
  situation?: EmergencySituation;
  detail?: Record<string, string | number | boolean | null>;
}

export const NOTHING_RAISED: Raised = { events: [], escalation: null, note: null };

/** Text-ReAct observations come back as user messages; they are tool output, not the visitor. */
const isVisitor = (m: ChatMessage) => m.role === "user" && !contentText(m.content).startsWith("Observation:");

/** A stable id for a message the client sent without one, so each step of a turn finds the same. */
function textId(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `text-${(h >>> 0).toString(36)}`;
}

/**
 * The rules' verdict on the request's latest visitor message (every request, so every step of a
 * turn is told), and the context a later layer raises its escalation with.
 */
export function guardTurn(input: TurnGuardInput): TurnGuardResult {
  const last = [...input.messages].reverse().find(isVisitor);
  if (!last) return { ...NOTHING_RAISED, context: null };
  const text = contentText(last.content);
  const language = cardLanguage(/[\u3400-\u9fff]/.test(text) ? "zh-CN" : "en");
  const context: EscalationContext = {
    messageId: last.id ?? textId(text),
    text,
    language,
    region: visitorRegion({ ...input.place, language }, input.site.safety),
    extension: input.extension,
  };
  const verdict = checkEmergency(text);
  if (!verdict.emergency) return { ...NOTHING_RAISED, context };
  const decision: Decision = { category: verdict.category, source: "rules", matched: verdict.matched };
  return { ...raiseEscalation(context, input.site.safety, decision), context };
}

/**
 * The escalation one layer decided: the card in the visitor's language with the numbers for their
 * region, its trace step (which layer, on what), and the note the model is told.
 */
export function raiseEscalation(ctx: EscalationContext, safety: SiteSafety, d: Decision, now = Date.now()): Raised {
  const { messageId, region, language } = ctx;
  const variant = variantOf(d.category);
  const contacts = contactsFor(region, safety, variant === "crisis", language);
  const situation: { situation?: EmergencySituation } = d.situation ? { situation: d.situation } : {};
  const matched = d.matched.trim().slice(0, 200);
  const escalation: Escalation = {
    messageId,
    category: d.category,
    variant,
    source: d.source,
    ...situation,
    matched,
    region,
    ...escalationText(d.category, language),
    contacts,
    at: now,
  };
  const detail: Record<string, string | number | boolean | null> = {
    messageId,
    category: d.category,
    variant,
    source: d.source,
    ...situation,
    region,
    matched,
    ...d.detail,
  };
  const events: SessionEvent[] = [
    escalationEvent(escalation, now),
    traceEvent(traceEventId(`guard:${messageId}`), { kind: "guard", name: "emergency", ok: true, detail }, now),
  ];
  const numbers = contacts.map((c) => `${c.label} ${c.number}`);
  return { events, escalation, note: modelNote(d.category, numbers) };
}

const sse = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;

/**
 * The escalation as stream events, ahead of the reply's text: a chunk with no choices and Parley's
 * field (OpenAI clients skip it, as they do the usage chunk; the widget shows its card), and for a
 * client that does not read the extension, the card as the reply's first assistant content.
 */
export function escalationChunks(event: SessionEvent, model: string, ctx: EscalationContext): string {
  const escalation = (event.data as { escalation: Escalation }).escalation;
  // No `id`: readers name the reply (and tool calls sent without ids) after the first chunk's id.
  const head = { object: "chat.completion.chunk", created: Math.floor(event.at / 1000), model };
  let out = sse({ ...head, choices: [], [STREAM_EXTENSION]: { event } });
  if (!ctx.extension) {
    const delta = { role: "assistant", content: escalationAsText(escalation, ctx.language) };
    out += sse({ ...head, choices: [{ index: 0, delta, finish_reason: null }] });
  }
  return out;
}

/** The escalation event among a layer's events, if it raised one. */
export const escalationIn = (events: readonly SessionEvent[]) => events.find((e) => e.id.startsWith("escalation:"));
