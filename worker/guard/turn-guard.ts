import type { AgentConfig, SiteConfig } from "../../shared/agent-config.ts";
import { contentText, type ChatMessage } from "../../shared/chat.ts";
import { escalationEvent } from "../../shared/events.ts";
import { traceEvent, traceEventId } from "../../shared/step-events.ts";
import { STREAM_EXTENSION, type EmergencyCategory } from "../../shared/protocol.ts";
import type { Escalation, SessionEvent } from "../../shared/session.ts";
import { classify, type ClassifierTarget } from "./classifier.ts";
import { contactsFor, visitorRegion, type VisitorPlace } from "./emergency-contacts.ts";
import { checkEmergency, variantOf } from "./emergency-guard.ts";
import { escalationText, modelNote } from "./escalation-text.ts";

export interface TurnGuardInput {
  agent: AgentConfig;
  site: SiteConfig;
  messages: readonly ChatMessage[];
  /** The visitor's country and languages, from the request. */
  place: Omit<VisitorPlace, "language">;
  /** Run the classifier too (when the site has one): the turn's first request, not its later steps. */
  classifier: ClassifierTarget | null;
  model: string;
}

export interface TurnGuardResult {
  /** The escalation and its trace step; empty when the message is not an emergency. */
  events: SessionEvent[];
  escalation: Escalation | null;
  /** Appended to the provider's system prompt. */
  note: string | null;
}

/** Text-ReAct observations come back as user messages; they are tool output, not the visitor. */
const isVisitor = (m: ChatMessage) => m.role === "user" && !contentText(m.content).startsWith("Observation:");

/** A stable id for a message the client sent without one, so each step of a turn finds the same. */
function textId(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `text-${(h >>> 0).toString(36)}`;
}

/**
 * The emergency guard for one chat request: the visitor's latest message through the rules (every
 * request, so every step of a turn is told), then, when the rules found nothing and the site has
 * one, through the classifier. Returns what to store, stream and tell the model.
 */
export async function guardTurn(input: TurnGuardInput): Promise<TurnGuardResult> {
  const none: TurnGuardResult = { events: [], escalation: null, note: null };
  const last = [...input.messages].reverse().find(isVisitor);
  if (!last) return none;
  const text = contentText(last.content);
  const messageId = last.id ?? textId(text);
  const now = Date.now();
  const verdict = checkEmergency(text);
  let category: EmergencyCategory | null = verdict.emergency ? verdict.category : null;
  let source: Escalation["source"] = "rules";
  const traceDetail: Record<string, string | number | boolean | null> = {};
  const config = input.site.safety.classifier;
  if (!category && config && input.classifier) {
    const outcome = await classify(config, input.classifier, text, input.model);
    if (outcome.ok && outcome.category) {
      category = outcome.category;
      source = "classifier";
    }
    if (!outcome.ok) {
      // The rules' verdict stands; the owner sees the classifier failed.
      const data = {
        kind: "guard",
        name: "classifier",
        ms: outcome.ms,
        ok: false,
        detail: { messageId, error: outcome.reason },
      };
      return { ...none, events: [traceEvent(traceEventId(`guard-classifier:${messageId}`), data, now)] };
    }
    traceDetail.classifierMs = outcome.ms;
  }
  if (!category) return none;

  const language = /[\u3400-\u9fff]/.test(text) ? "zh-CN" : "en";
  const region = visitorRegion({ ...input.place, language }, input.site.safety);
  const crisis = variantOf(category) === "crisis";
  const contacts = contactsFor(region, input.site.safety, crisis, language);
  const escalation: Escalation = {
    messageId,
    category,
    variant: variantOf(category),
    source,
    matched: verdict.emergency ? verdict.matched : "",
    region,
    ...escalationText(category, language),
    contacts,
    at: now,
  };
  const detail = {
    messageId,
    category,
    variant: escalation.variant,
    source,
    region,
    matched: escalation.matched,
    ...traceDetail,
  };
  const events: SessionEvent[] = [
    escalationEvent(escalation, now),
    traceEvent(traceEventId(`guard:${messageId}`), { kind: "guard", name: "emergency", ok: true, detail }, now),
  ];
  return {
    events,
    escalation,
    note: modelNote(
      category,
      contacts.map((c) => `${c.label} ${c.number}`),
    ),
  };
}

/**
 * The escalation as the first event of the reply's stream, before the provider's first byte: a
 * chunk with no choices (OpenAI clients skip it, as they do the usage chunk) and Parley's field.
 */
export function escalationChunk(event: SessionEvent, model: string): Uint8Array {
  // No `id`: readers name the reply (and tool calls sent without ids) after the first chunk's id.
  const chunk = {
    object: "chat.completion.chunk",
    created: Math.floor(event.at / 1000),
    model,
    choices: [],
    [STREAM_EXTENSION]: { event },
  };
  return new TextEncoder().encode(`data: ${JSON.stringify(chunk)}\n\n`);
}
