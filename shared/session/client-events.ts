import { z } from "zod/mini";
import { CLIENT_STEP_KINDS, TOOL_OUTCOMES } from "../chat/client-steps.ts";
import { EVENT_TYPES } from "../wire/protocol.ts";
import { AdviceRecorded } from "./session-events.ts";

/**
 * What a browser may append to its session's log (POST /v1/sessions/:id/events), and no more: each
 * is about something the worker stored first, and the worker owns the rest (worker/session/client-events.ts).
 * - `message.appended`: the result of a tool call the assistant made (role `tool`);
 * - `trace.step`: a run of one of the browser's own tools, or a turn stopped while they ran;
 * - `advice.recorded`: a copy of a card the worker derived; it changes nothing and is not stored.
 */
export const CLIENT_EVENT_TYPES = [EVENT_TYPES.messageAppended, EVENT_TYPES.traceStep, EVENT_TYPES.adviceRecorded];

/** A browser's id for its event; `at` is read by no one (the worker stamps its own time). */
const base = { id: z.string().check(z.minLength(1), z.maxLength(120)), at: z.optional(z.number()) };

/** Only the fields listed here are kept; whatever else a step carries (tokens, timings) is dropped. */
export const ClientTraceStep = z.object({
  ...base,
  type: z.literal(EVENT_TYPES.traceStep),
  data: z.object({
    kind: z.enum(CLIENT_STEP_KINDS),
    // A text ReAct step's tool is named in the model's text, whatever it wrote (the worker names a native call's).
    name: z.optional(z.string().check(z.maxLength(100))),
    ms: z.optional(z.number()),
    ok: z.boolean(),
    detail: z.optional(z.object({ side: z.optional(z.literal("client")), outcome: z.optional(z.enum(TOOL_OUTCOMES)) })),
  }),
});
export type ClientTraceStep = z.infer<typeof ClientTraceStep>;

export const ClientToolResult = z.object({
  ...base,
  type: z.literal(EVENT_TYPES.messageAppended),
  data: z.object({
    message: z.object({
      id: z.string().check(z.minLength(1), z.maxLength(100)),
      role: z.literal("tool"),
      content: z.string(),
      toolCallId: z.string().check(z.minLength(1), z.maxLength(200)),
      // Only the worker writes a staff member's message (takeover): a browser cannot sign one.
      author: z.optional(z.never()),
      at: z.optional(z.number()),
    }),
  }),
});
export type ClientToolResult = z.infer<typeof ClientToolResult>;

/**
 * A consent event sent by a browser: read only to be refused (403), never stored. Consent is the
 * worker's to record, from the consent route (shared/session/consent.ts), with its own time and the current version.
 */
export const ClientConsent = z.object({ ...base, type: z.literal(EVENT_TYPES.consentGiven), data: z.unknown() });

export const ClientEvent = z.discriminatedUnion("type", [
  ClientToolResult,
  ClientTraceStep,
  AdviceRecorded,
  ClientConsent,
]);
export type ClientEvent = z.infer<typeof ClientEvent>;
