import { signal } from "@preact/signals";
import type { AdminAnswer, AdminMethod, AdminRoute } from "../shared/wire/admin-answers.ts";
import type { ConsoleSession } from "../shared/admin/console-session.ts";
import { HEADERS } from "../shared/wire/protocol.ts";
import { routePath, type RouteParams } from "../shared/wire/route-path.ts";
import * as ROUTES from "../shared/wire/routes.ts";

/**
 * The signed-in session: null before sign-in (and after sign-out or expiry), with who signed in and
 * their role. The admin key is never kept: it is sent once, to sign in; the cookie (HttpOnly,
 * unreadable here) carries the session and `csrf` (in memory only) goes back on every write.
 */
export const session = signal<ConsoleSession | null>(null);

/** An error answer of the worker: its JSON `{ error: { code, message } }` and HTTP status. */
export class ApiFailure extends Error {
  override name = "ApiFailure";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfter?: number,
    /** A refused body's issues, each at its field's path (`allowedOrigins.1`): forms show them there. */
    readonly issues: ReadonlyArray<{ path: string; message: string }> = [],
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | undefined>;
interface CallInit {
  method: AdminMethod;
  json?: unknown;
  query?: Query;
}

/** What a call carries besides its route: its `:name` parameters (required when the route has any), body, query. */
type Init<R extends string> = { json?: unknown; query?: Query } & (keyof RouteParams<R> extends never
  ? { params?: undefined }
  : { params: RouteParams<R> });
type InitArgs<R extends string> = keyof RouteParams<R> extends never ? [init?: Init<R>] : [init: Init<R>];

/** One method of the client: the route's answer is the one shared/wire/admin-answers.ts declares for it. */
const verb =
  <M extends AdminMethod>(m: M) =>
  <R extends AdminRoute<M>>(route: R, ...[init]: InitArgs<R>): Promise<AdminAnswer<M, R>> => {
    const { params, ...rest } = (init ?? {}) as Init<R>;
    const path = (routePath as (r: string, p?: object) => string)(route, params);
    return withReauth<AdminAnswer<M, R>>(path, { method: m, ...rest });
  };

/**
 * The console's one way to the worker: every route by its pattern (shared/wire/routes.ts), with the answer
 * shared/wire/admin-answers.ts declares for that method and route, as the widget's transport does for its
 * own routes. Same-origin cookie, CSRF header on writes, errors thrown as ApiFailure.
 */
export const api = {
  get: verb("GET"),
  post: verb("POST"),
  put: verb("PUT"),
  patch: verb("PATCH"),
  delete: verb("DELETE"),
};

/**
 * How an account signs in afresh (reauth.ts: its passkey, or single sign-on): set by the console's
 * entry point, since that code calls this file's `api` and this file does not import it back.
 */
let freshSignIn: ((siteKey: string) => Promise<void>) | undefined;
export function onFreshSignIn(signIn: (siteKey: string) => Promise<void>): void {
  freshSignIn = signIn;
}

/**
 * A step that asks for a fresh sign-in (exports, erasure, roles, keys, webhook endpoints and secrets, MCP
 * servers, the calendar) asks an account for its passkey once and is tried again (an account without one
 * goes through single sign-on again); a session of the admin key must sign in again.
 */
async function withReauth<T>(path: string, init: CallInit): Promise<T> {
  try {
    return await call<T>(path, init);
  } catch (err) {
    const who = session.value?.who;
    if (!(err instanceof ApiFailure) || err.code !== "reauth_required" || who?.kind !== "account") throw err;
    if (!freshSignIn) throw err;
    await freshSignIn(session.value!.site);
    return call<T>(path, init);
  }
}

async function call<T>(path: string, init: CallInit): Promise<T> {
  const { method } = init;
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(init.query ?? {}))
    if (v !== undefined && v !== "") url.searchParams.set(k, String(v));
  const headers: Record<string, string> = {};
  if (init.json !== undefined) headers["content-type"] = "application/json";
  if (method !== "GET" && session.value) headers[HEADERS.csrf] = session.value.csrf;
  const res = await fetch(url, {
    method,
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
    credentials: "same-origin",
  });
  if (res.status === 204) return undefined as T;
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const err = body?.error ?? {};
    // The session ended (signed out elsewhere, expired, key changed): back to the sign-in form.
    if (res.status === 401 && !path.startsWith("/v1/console/")) session.value = null;
    const retry = Number(res.headers.get("retry-after")) || undefined;
    const issues = Array.isArray(err.issues) ? err.issues : [];
    throw new ApiFailure(res.status, err.code ?? "internal", err.message ?? res.statusText, retry, issues);
  }
  return body as T;
}

export async function restoreSession(): Promise<void> {
  try {
    session.value = await api.get(ROUTES.consoleSession);
  } catch {
    session.value = null;
  }
}

export async function signIn(siteKey: string, adminKey: string): Promise<void> {
  session.value = await api.post(ROUTES.consoleSession, { json: { siteKey, adminKey } });
}

/** A one-time sign-in link's token (the console's address ends `#sign-in=<token>`), spent on the first try. */
export async function signInWithLink(signInLink: string): Promise<void> {
  session.value = await api.post(ROUTES.consoleSession, { json: { signInLink } });
}

export async function signOut(): Promise<void> {
  await api.delete(ROUTES.consoleSession);
  session.value = null;
}
