import { routePath } from "../../shared/wire/route-path.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import type { PersonRequestResponse } from "../../shared/takeover/takeover-api.ts";
import type { FetchLike } from "../transport/http.ts";
import { requestJson } from "../transport/http.ts";
import type { SessionStore } from "./session-store.ts";
import type { SessionEvent, StoredMessage } from "../../shared/session/session-events.ts";
import type { ContactInput } from "../../shared/takeover/takeover-events.ts";

/** What a takeover step needs: the worker, and the session whose credentials it carries and whose log it folds. */
export interface TakeoverContext {
  api: string;
  fetch?: FetchLike;
  session: SessionStore;
}

/** Every takeover answer carries the events it stored (shared/takeover/takeover-api.ts). */
function withEvents<T extends { events: SessionEvent[] }>(v: unknown): T | null {
  const events = (v as { events?: unknown } | null)?.events;
  return Array.isArray(events) && events.every((e) => typeof (e as SessionEvent)?.type === "string") ? (v as T) : null;
}

/**
 * One of takeover's visitor routes, with the session's token; the events it stored are
 * folded at once (the live channel brings the same ones to other tabs; folded once, see live-sync.ts).
 */
async function post<T extends { events: SessionEvent[] }>(
  ctx: TakeoverContext,
  route: typeof ROUTES.sessionPerson | typeof ROUTES.sessionMessages | typeof ROUTES.sessionContact,
  body: unknown,
): Promise<T> {
  const { sessionId, token } = await ctx.session.ensure();
  const url = ctx.api + routePath(route, { id: sessionId });
  const res = await requestJson(url, withEvents<T>, { method: "POST", body, token, fetch: ctx.fetch });
  ctx.session.apply(res.events);
  return res;
}

/**
 * The visitor's message while a person from the site's staff handles the conversation: to them, not
 * to the model (the chat route refuses a turn then, `taken_over`). Its id is the message's own, so a
 * retried send is stored once.
 */
export async function sendToPerson(ctx: TakeoverContext, message: Pick<StoredMessage, "id" | "content">) {
  await post(ctx, ROUTES.sessionMessages, { id: message.id, content: message.content });
}

/** "Ask for a person": queued for the site's staff, or nobody available (then the contact form). */
export function askForPerson(ctx: TakeoverContext, reason?: string): Promise<PersonRequestResponse> {
  return post<PersonRequestResponse>(ctx, ROUTES.sessionPerson, reason ? { reason } : {});
}

/** A way to reach the visitor, left when nobody could come; the owner reads it with the conversation. */
export async function leaveContact(ctx: TakeoverContext, contact: ContactInput): Promise<void> {
  await post(ctx, ROUTES.sessionContact, contact);
}
