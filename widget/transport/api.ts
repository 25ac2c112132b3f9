import type {
  ActionResponse,
  ContextEditResponse,
  FeedbackResponse,
  RestoredSessionResponse,
  SessionResponse,
  StageCompleteResponse,
  ToolResponse,
  TraceResponse,
} from "../../shared/wire/api.ts";
import type { ChatChunk, ChatRequest } from "../../shared/chat/chat.ts";
import { routePath, type RouteParams } from "../../shared/wire/route-path.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { ProtocolError } from "./errors.ts";
import { request, requestJson, type FetchLike, type RequestOptions } from "./http.ts";

/**
 * The widget's one way to the worker: every route it calls, by name from shared/wire/routes.ts, and each
 * answer checked where it enters. The checks are small hand-written guards of what the widget
 * reads (a schema library would cost the panel's core several KB gz; see bench:size).
 */
export interface ApiContext {
  /** Base URL of the worker, without a trailing slash. */
  api: string;
  fetch?: FetchLike;
}

/** A session's credentials, as every call after the session's creation carries them. */
export interface SessionAuth {
  sessionId: string;
  token: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const objects = (v: unknown) => Array.isArray(v) && v.every(isObject);

/** What a field must be; the names read like the types they stand for. */
const KINDS = {
  string: (v: unknown) => typeof v === "string",
  number: (v: unknown) => typeof v === "number",
  boolean: (v: unknown) => typeof v === "boolean",
  object: isObject,
  objects,
  /** Answers that changed the session may carry its new events. */
  events: (v: unknown) =>
    v === undefined || (objects(v) && (v as Array<Record<string, unknown>>).every((e) => typeof e.type === "string")),
  state: (v: unknown) =>
    isObject(v) && typeof v.sessionId === "string" && objects(v.messages) && typeof v.version === "number",
  agent: (v: unknown) => isObject(v) && typeof v.id === "string" && Array.isArray(v.tools) && Array.isArray(v.stages),
};

/** A check of the fields the widget reads; the body is returned as it came when they are all there. */
const shape =
  <T>(spec: Record<string, keyof typeof KINDS>) =>
  (v: unknown): T | null =>
    isObject(v) && Object.keys(spec).every((k) => KINDS[spec[k]](v[k])) ? (v as T) : null;

/** Each route's answer as the widget reads it, by route pattern (shared/wire/routes.ts). */
export interface Answers {
  [ROUTES.sessions]: SessionResponse;
  [ROUTES.session]: RestoredSessionResponse;
  [ROUTES.sessionEvents]: unknown;
  [ROUTES.sessionFeedback]: FeedbackResponse;
  [ROUTES.tool]: ToolResponse;
  [ROUTES.sessionContext]: ContextEditResponse;
  [ROUTES.stageComplete]: StageCompleteResponse;
  [ROUTES.action]: ActionResponse;
  [ROUTES.trace]: TraceResponse;
}
type Route = keyof Answers;

const CHECKS: { [R in Route]: (v: unknown) => Answers[R] | null } = {
  [ROUTES.sessions]: shape({
    sessionId: "string",
    token: "string",
    expiresAt: "number",
    agent: "agent",
    state: "state",
  }),
  [ROUTES.session]: shape({ state: "state", agent: "agent" }),
  // The widget reads nothing of it; a 2xx is the answer.
  [ROUTES.sessionEvents]: (v) => v,
  [ROUTES.sessionFeedback]: shape({ events: "objects" }),
  // A tool's result is whatever the tool answers (the model reads it); only its events are folded.
  [ROUTES.tool]: shape({ events: "events" }),
  [ROUTES.sessionContext]: shape({ contextVersion: "number", events: "events" }),
  [ROUTES.stageComplete]: shape({ completed: "boolean", checks: "objects", events: "events" }),
  [ROUTES.action]: shape({ result: "object", events: "events" }),
  [ROUTES.trace]: shape({ trace: "objects" }),
};

/** The body of the chat route as the widget sends it (the worker adds the system prompt and the model). */
export type ChatBody = Pick<ChatRequest, "messages" | "parley"> & { stream: true };

export function createApi(ctx: ApiContext) {
  return {
    /**
     * One call of a JSON route: its path from the route's parameters, its answer checked. `auth`
     * is the session's token (and its id fills `:id` unless `params` name it).
     */
    call<R extends Route>(
      route: R,
      auth: SessionAuth | null,
      opts: RequestOptions = {},
      params?: Partial<RouteParams<R>>,
    ): Promise<Answers[R]> {
      const path = (routePath as (r: R, p: object) => string)(route, { id: auth?.sessionId, ...params });
      return requestJson(ctx.api + path, CHECKS[route] as (v: unknown) => Answers[R] | null, {
        ...opts,
        token: auth?.token,
        fetch: ctx.fetch,
      });
    },

    /** A streamed completion's body (read with bodyText and chatChunks, sse.ts). */
    async streamChat(token: string, body: ChatBody, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>> {
      const res = await request(ctx.api + ROUTES.chat, { body, token, signal, fetch: ctx.fetch });
      if (!res.body) throw new ProtocolError("upstream_error", "No response body");
      return res.body;
    },
  };
}

export type Api = ReturnType<typeof createApi>;
