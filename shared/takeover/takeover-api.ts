import { z } from "zod/mini";
import { LIMITS, type PersonRequester, type UnavailableReason } from "../wire/protocol.ts";
import type { SessionEvent } from "../session/session-events.ts";
import type { Handler } from "./takeover-state.ts";

/**
 * Takeover's routes, request bodies and answers. Visitor side, with the session token:
 * ask for a person (POST sessionPerson), write to the person handling the chat (POST
 * sessionMessages; the chat route answers 409 `taken_over` then), leave a contact (POST
 * sessionContact). Staff side, with the console's cookie (or the admin key): the queue and the live
 * conversations (GET adminLive), presence (POST/DELETE adminLivePresence), a conversation's live
 * channel (GET adminLiveChannel), join, write, hand back.
 */

/** A message's id (from its writer, so a retried send stores it once) and its text. */
const MessageId = z.string().check(z.minLength(1), z.maxLength(100), z.regex(/^[A-Za-z0-9_-]+$/));
const Text = z.string().check(z.minLength(1), z.maxLength(LIMITS.maxMessageChars));

/** The visitor's message while a person handles the conversation. */
export const VisitorMessageInput = z.object({ id: MessageId, content: Text });
export type VisitorMessageInput = z.infer<typeof VisitorMessageInput>;

/** A staff message; its id is the worker's (prefixed `staff-`) unless the console names one for a retry. */
export const StaffMessageInput = z.object({ id: z.optional(MessageId), content: Text });
export type StaffMessageInput = z.infer<typeof StaffMessageInput>;

/**
 * Joining, handing back, the presence heartbeat: an empty body. The name the visitor sees is the
 * staff member's account's ("Mei"), never one the page sends (a `name` sent is ignored).
 */
export const StaffStepInput = z.object({});

/** Every takeover answer that changed the session carries its events, so the caller folds them at once. */
export interface TakeoverResponse {
  events: SessionEvent[];
}

/** Staff steps (join, write, hand back): the events, and who handles the conversation after it. */
export interface StaffStepResponse extends TakeoverResponse {
  handler: Handler;
}

/** POST sessionPerson: queued for staff, nobody available (with the site's message), or a person already handles it. */
export interface PersonRequestResponse extends TakeoverResponse {
  status: "queued" | "unavailable" | "with_person";
  /** Unavailable: why, and the site's text for the visitor (the session's language). */
  reason?: UnavailableReason;
  message?: string;
}

/** One conversation waiting for a person. */
export interface QueuedConversation {
  sessionId: string;
  agentId: string;
  by: PersonRequester;
  reason?: string;
  requestedAt: number;
  /** ms since it asked, at `now` of the answer (the page counts on from there). */
  waitingMs: number;
  firstText: string;
}

/** One conversation a person handles, or one the agent answered lately (the Live page's list). */
export interface LiveConversation {
  sessionId: string;
  agentId: string;
  handler: Handler;
  lastActivityAt: number;
  firstText: string;
}

/** GET adminLive. */
export interface LiveOverview {
  now: number;
  queue: QueuedConversation[];
  live: LiveConversation[];
  staff: {
    /** Staff with the Live page open (a heartbeat in the last PRESENCE_TTL_MS). */
    present: number;
    withinHours: boolean;
    /** What a visitor asking now gets: queued (true) or the contact form (false). */
    available: boolean;
    enabled: boolean;
  };
}

/** A staff member counts as present this long after their Live page's last heartbeat. */
export const PRESENCE_TTL_MS = 45_000;
/** The Live page's heartbeat (and queue refresh) period. */
export const PRESENCE_BEAT_MS = 15_000;
/** Staff messages' ids: the chat route refuses a visitor message that claims one. */
export const STAFF_MESSAGE_PREFIX = "staff-";
