import * as ROUTES from "../../shared/wire/routes.ts";
import { LiveQuery } from "../../shared/session/live-query.ts";
import { json, op, type RouteDocs } from "./route-doc.ts";
import * as A from "./visitor-answers.ts";

const stageErrors = [
  [404, "not_found"],
  [409, "conflict"],
] as const;
const takeoverErrors = [
  [403, "takeover_disabled"],
  [404, "not_found"],
  [409, "already_taken"],
  [409, "not_taken_over"],
] as const;
/** What a turn that reaches the provider may answer besides its own refusals. */
const providerErrors = [
  [502, "upstream_error"],
  [502, "upstream_unreachable"],
  [503, "upstream_busy"],
  [503, "provider_not_configured"],
  [504, "upstream_timeout"],
] as const;

/** The routes a visitor's widget calls, with the session's token (but opening the session). */
export const VISITOR_ROUTES: RouteDocs = {
  [op("post", ROUTES.sessions)]: {
    tag: "visitor",
    summary: "Open a session for a site's agent",
    description:
      "Called from a page of the site (its Origin must be one the site lists). Answers the token every " +
      "later call sends as `Authorization: Bearer <token>`.",
    answers: { 201: json("The new session, its token, the agent and the session's state", A.SessionAnswer) },
    errors: [
      [401, "unauthorized"],
      [403, "unknown_site"],
      [403, "forbidden_origin"],
      [403, "forbidden"],
      [404, "unknown_agent"],
      [404, "not_found"],
      [429, "rate_limited"],
      [503, "misconfigured"],
    ],
  },
  [op("get", ROUTES.session)]: {
    tag: "visitor",
    summary: "Restore a session: its state, its agent and the replies streaming now",
    answers: { 200: json("The session's state and agent", A.RestoredSessionAnswer) },
    errors: [[404, "unknown_agent"]],
  },
  [op("post", ROUTES.sessionEvents)]: {
    tag: "visitor",
    summary: "Store the results of the widget's own tools and their trace steps",
    answers: { 200: json("The session's version after the append", A.EventsVersionAnswer) },
    errors: [
      [400, "validation_failed"],
      [409, "conflict"],
    ],
  },
  [op("post", ROUTES.sessionFeedback)]: {
    tag: "visitor",
    summary: "Rate an assistant reply (thumbs up or down, with an optional comment)",
    answers: { 201: json("The feedback event", A.EventsAnswer) },
    errors: [[404, "not_found"]],
  },
  [op("post", ROUTES.sessionPhotos)]: {
    tag: "visitor",
    summary: "Upload a photo (its raw bytes) for the next message",
    rawBody: {
      media: ["image/jpeg", "image/png", "image/webp", "image/gif"],
      description: "The image's bytes, without metadata (the widget removes Exif and XMP before upload)",
    },
    answers: { 201: json("The stored photo", A.PhotoAnswer) },
    errors: [
      [400, "bad_request"],
      [400, "photo_metadata"],
      [403, "photos_unavailable"],
      [404, "unknown_agent"],
      [409, "conflict"],
      [413, "payload_too_large"],
      [415, "unsupported_media_type"],
    ],
  },
  [op("get", ROUTES.sessionPhoto)]: {
    tag: "visitor",
    summary: "Read one of the session's photos",
    answers: { 200: { description: "The photo's bytes (no-store)", media: "image/*" } },
    errors: [[404, "not_found"]],
  },
  [op("get", ROUTES.live)]: {
    tag: "visitor",
    summary: "The session's live channel: a WebSocket, or the same frames as server-sent events",
    description:
      "With `Upgrade: websocket`, the token rides as the `bearer.<token>` subprotocol (a browser cannot set " +
      "headers on a WebSocket). Otherwise SSE: `?after=<seq>` for the whole channel, `?reply=<id>&from=<offset>` " +
      "for one reply's rest.",
    query: LiveQuery,
    answers: {
      101: { description: "Switching to the WebSocket protocol", media: "none" },
      200: { description: "The channel's frames as server-sent events", media: "text/event-stream" },
    },
    errors: [
      [400, "validation_failed"],
      [429, "rate_limited"],
    ],
  },
  [op("post", ROUTES.replyStop)]: {
    tag: "visitor",
    summary: "Stop a streamed reply, from any tab",
    answers: { 200: json("Whether a reply was stopped", A.StopAnswer) },
  },
  [op("post", ROUTES.sessionPerson)]: {
    tag: "visitor",
    summary: "Ask for a person from the site's staff",
    answers: {
      200: json("Queued, nobody available (with the site's message), or already with a person", A.PersonAnswer),
    },
    errors: takeoverErrors,
  },
  [op("post", ROUTES.sessionMessages)]: {
    tag: "visitor",
    summary: "The visitor's message while a person handles the conversation",
    answers: { 201: json("The stored message", A.TakeoverAnswer) },
    errors: [...takeoverErrors, [403, "forbidden"]],
  },
  [op("post", ROUTES.sessionContact)]: {
    tag: "visitor",
    summary: "Leave a way to be contacted when nobody was available",
    answers: { 201: json("The stored contact", A.TakeoverAnswer) },
    errors: takeoverErrors,
  },
  [op("get", ROUTES.sessionContext)]: {
    tag: "visitor",
    summary: "A stage workflow's collected values and current stage",
    answers: { 200: json("The workflow's context", A.ContextAnswer) },
    errors: stageErrors,
  },
  [op("patch", ROUTES.sessionContext)]: {
    tag: "visitor",
    summary: "Edit one collected value (refused when the context changed since the copy it was based on)",
    answers: { 200: json("The edit's events and the new context version", A.ContextEditAnswer) },
    errors: [...stageErrors, [400, "validation_failed"]],
  },
  [op("post", ROUTES.stageComplete)]: {
    tag: "visitor",
    summary: "Complete the current stage: its rules are checked first",
    answers: { 200: json("Completed, or blocked with each rule's verdict", A.StageCompleteAnswer) },
    errors: [...stageErrors, ...providerErrors],
  },
  [op("post", ROUTES.action)]: {
    tag: "visitor",
    summary: "The result of an action card (a deep link or a modal)",
    answers: { 200: json("The recorded result", A.ActionAnswer) },
    errors: [...stageErrors, [400, "validation_failed"]],
  },
  [op("get", ROUTES.trace)]: {
    tag: "visitor",
    summary: "The session's trace (completions, tool calls, errors), as the debug view shows it",
    answers: { 200: json("The trace", A.TraceAnswer) },
    errors: stageErrors,
  },
  [op("post", ROUTES.chat)]: {
    tag: "visitor",
    summary: "One turn of the agent: an OpenAI-compatible chat completion, streamed or not",
    description:
      "The worker sets the model, the system prompt and the tools; the client's messages are the visitor's " +
      "(a `system` message is refused). `stream: true` answers server-sent events of `chat.completion.chunk`.",
    answers: {
      200: {
        description: "The completion (`stream: false`), or its chunks as server-sent events (`stream: true`)",
        schema: A.CompletionAnswer,
        alsoMedia: ["text/event-stream"],
      },
    },
    errors: [
      [400, "validation_failed"],
      [400, "model_not_allowed"],
      [403, "forbidden"],
      [403, "unknown_site"],
      [403, "forbidden_origin"],
      [404, "unknown_agent"],
      [409, "conflict"],
      [409, "taken_over"],
      [429, "rate_limited"],
      [429, "budget_exceeded"],
      ...providerErrors,
    ],
  },
  [op("post", ROUTES.tool)]: {
    tag: "visitor",
    summary: "Run an edge tool the agent called (a tool call id runs once; a second call replays its answer)",
    answers: { 200: json("The tool's result", A.ToolAnswer) },
    errors: [
      [400, "validation_failed"],
      [403, "forbidden"],
      [404, "not_found"],
      [409, "conflict"],
      [429, "rate_limited"],
      [502, "tool_failed"],
      [504, "tool_failed"],
    ],
  },
};
