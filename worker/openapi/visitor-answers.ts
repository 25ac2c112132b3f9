import { ROLES } from "../../shared/admin/roles.ts";
import { z } from "zod/mini";
import type {
  ActionResponse,
  ContextEditResponse,
  FeedbackResponse,
  RestoredSessionResponse,
  SessionResponse,
  TraceResponse,
} from "../../shared/wire/api.ts";
import type { ChatCompletion } from "../../shared/chat/chat.ts";
import type { ConsoleSession } from "../../shared/admin/console-session.ts";
import type { PersonRequestResponse, TakeoverResponse } from "../../shared/takeover/takeover-api.ts";
import type { StoredPhoto } from "../photos/photo-store.ts";
import { keysOf, object, objects } from "./answer-schema.ts";

/** What a visitor's and the console's calls answer (the admin routes' answers are in admin-answers.ts). */

const Agent = object(
  "PublicAgent (shared/config/agent-config.ts): the agent as its widget draws it, without its prompts",
);
const State = object("SessionState (shared/session/session.ts): the fold of the session's events");
const Events = objects("SessionEvent (shared/session/session-events.ts)");

export const HealthAnswer = z.object({ ok: z.boolean(), demo: z.boolean() });

export const SessionAnswer = keysOf<SessionResponse>()(
  z.object({
    sessionId: z.string(),
    token: z.string().check(z.describe("Send as `Authorization: Bearer <token>` on every later call")),
    expiresAt: z.number().check(z.describe("ms since the epoch")),
    agent: Agent,
    state: State,
  }),
);

export const RestoredSessionAnswer = keysOf<RestoredSessionResponse>()(
  z.object({
    state: State,
    agent: Agent,
    streaming: z.optional(z.array(z.string()).check(z.describe("Replies streaming now, to reattach to"))),
  }),
);

export const EventsVersionAnswer = z.object({ version: z.number() });
export const EventsAnswer = keysOf<FeedbackResponse>()(z.object({ events: Events }));
export const TakeoverAnswer = keysOf<TakeoverResponse>()(z.object({ events: Events }));

export const PersonAnswer = keysOf<PersonRequestResponse>()(
  z.object({
    status: z.enum(["queued", "unavailable", "with_person"]),
    events: Events,
    reason: z.optional(z.string()),
    message: z.optional(z.string()),
  }),
);

export const PhotoAnswer = keysOf<StoredPhoto>()(
  z.object({ id: z.string(), type: z.string(), bytes: z.number(), uploadedAt: z.number() }),
);

export const StopAnswer = z.object({ stopped: z.boolean() });

export const ContextAnswer = z.object({
  stage: object("The stage workflow: current, completed, done"),
  context: object("Collected values by stage id, then field key"),
  contextVersion: z.number(),
});

export const ContextEditAnswer = keysOf<ContextEditResponse>()(
  z.object({ events: z.optional(Events), contextVersion: z.number() }),
);

export const StageCompleteAnswer = z.object({
  completed: z.boolean(),
  checks: objects("RuleCheck (shared/stages/stage-machine.ts): each rule's verdict"),
  events: Events,
  stage: object("The stage workflow after the step"),
});

export const ActionAnswer = keysOf<ActionResponse>()(
  z.object({ result: object("FieldValues: the card's result"), events: z.optional(Events) }),
);

export const TraceAnswer = keysOf<TraceResponse>()(z.object({ trace: objects("A trace step") }));

export const ToolAnswer = z.object({
  name: z.string(),
  result: z.unknown(),
  events: z.optional(Events),
  ms: z.number(),
  replayed: z.optional(z.boolean()),
});

const Usage = z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() });

export const CompletionAnswer = keysOf<ChatCompletion>()(
  z.looseObject({
    id: z.string(),
    object: z.literal("chat.completion"),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.number(),
        message: z.looseObject({
          role: z.literal("assistant"),
          content: z.nullable(z.string()),
          tool_calls: z.optional(objects("ToolCall")),
        }),
        finish_reason: z.nullable(z.string()),
      }),
    ),
    usage: z.optional(Usage),
  }),
);

export const ConsoleSessionAnswer = keysOf<ConsoleSession>()(
  z.object({
    site: z.string(),
    csrf: z.string().check(z.describe("Send back in the x-parley-csrf header on every write")),
    expiresAt: z.number(),
    who: z.object({
      kind: z.enum(["account", "key", "bootstrap"]),
      id: z.string(),
      name: z.string(),
      role: z.enum(ROLES),
    }),
  }),
);

export const IdentityAnswer = z.object({ identity: z.string() });
