import type * as ROUTES from "../shared/wire/routes.ts";

export type RouteName = keyof typeof ROUTES;
export const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type RouteMethod = (typeof ROUTE_METHODS)[number];

/**
 * A route a visitor's page calls: its methods, whether it needs the session's token, what the visitor
 * may write through it, and what the worker stamps or mints there whatever the visitor sends.
 */
export interface VisitorRoute {
  methods: readonly RouteMethod[];
  token: boolean;
  writes: string;
  owns: string;
}

/**
 * Every route a visitor's session token can call, by its name in shared/wire/routes.ts, and the one that
 * opens a session. test/worker/visitor-routes.test.ts finds the routes that take a session token by
 * calling every route, and fails for one missing here; it probes each entry's `owns`.
 */
export const VISITOR_ROUTES = {
  sessions: {
    methods: ["POST"],
    token: false,
    writes: "the site key, the agent, a locale, the host's signed identity",
    owns: "the session id, its token and expiry, the opening time and first stage",
  },
  session: {
    methods: ["GET", "DELETE"],
    token: true,
    writes: "nothing (GET); the erasure of its own conversation, whole (DELETE)",
    owns: "the session's state as stored (the owner's notes left out); what an erasure takes",
  },
  sessionConsent: {
    methods: ["POST"],
    token: true,
    writes: "the kind and version of the notice the visitor agreed to",
    owns: "which versions exist, the record's event and its time",
  },
  sessionDownload: {
    methods: ["GET"],
    token: true,
    writes: "nothing",
    owns: "the conversation's own data only, in the file it makes",
  },
  sessionEvents: {
    methods: ["POST"],
    token: true,
    writes: "results of the assistant's tool calls, its own tools' trace steps (tool, stopped)",
    owns: "event ids, times, the step's tool name and fields, side client; every other event type",
  },
  sessionFeedback: {
    methods: ["POST"],
    token: true,
    writes: "a rating and comment on one of its assistant replies",
    owns: "the event id and time; one rating per reply",
  },
  sessionPhotos: {
    methods: ["POST"],
    token: true,
    writes: "an image's bytes",
    owns: "the photo id, its type (by its bytes), the upload time, where it is stored",
  },
  sessionPhoto: {
    methods: ["GET"],
    token: true,
    writes: "nothing",
    owns: "the session's own photos only",
  },
  live: {
    methods: ["GET"],
    token: true,
    writes: "one attach per socket, Stop of a reply streaming now",
    owns: "every frame sent (log entries, reply text, ends)",
  },
  replyStop: {
    methods: ["POST"],
    token: true,
    writes: "Stop of a reply streaming now",
    owns: "the stopped reply's text, status and time",
  },
  sessionPerson: {
    methods: ["POST"],
    token: true,
    writes: "a reason",
    owns: "the request's event, requester (visitor), time and queue status; who handles it",
  },
  sessionMessages: {
    methods: ["POST"],
    token: true,
    writes: "a message id (never staff-) and text, while a person handles it",
    owns: "the role (user), no author, the time",
  },
  sessionContact: {
    methods: ["POST"],
    token: true,
    writes: "a name, a contact and a note",
    owns: "the event id and time",
  },
  sessionContext: {
    methods: ["GET", "PATCH"],
    token: true,
    writes: "one listed field of the current stage, checked against its schema",
    owns: "the source (visitor), the context version, event ids and times",
  },
  stageComplete: {
    methods: ["POST"],
    token: true,
    writes: "nothing but which stage",
    owns: "the checks' verdicts, whether the stage completes, the next stage",
  },
  action: {
    methods: ["POST"],
    token: true,
    writes: "a deep link's or form's result for a card of the current stage",
    owns: "an api_call card's result (the worker calls the endpoint), the mapping, the source (action)",
  },
  trace: {
    methods: ["GET"],
    token: true,
    writes: "nothing",
    owns: "the trace as stored (the owner's notes left out)",
  },
  chat: {
    methods: ["POST"],
    token: true,
    writes: "its messages, a new reply id, a listed model, the listed sampling fields",
    owns: "the system prompt, tools, token cap, every other field, message times, usage, trace steps",
  },
  tool: {
    methods: ["POST"],
    token: true,
    writes: "arguments for one of its agent's edge tools, a call id (of this session only)",
    owns: "the run's result, its trace step (id, time, ms, side edge)",
  },
} as const satisfies Partial<Record<RouteName, VisitorRoute>>;

export type VisitorRouteName = keyof typeof VISITOR_ROUTES;
