import { z } from "zod/mini";
import type { PublicAgent } from "../config/agent-config.ts";
import type { SessionState } from "../session/session.ts";
import type { RuleCheck } from "../stages/stage-machine.ts";
import type { FieldValues } from "../stages/field-value.ts";
import type { SessionEvent } from "../session/session-events.ts";

/** Route bodies of Parley's own JSON routes (the chat route's body is in chat.ts). */
export const CreateSessionRequest = z.object({
  siteKey: z.string().check(z.minLength(1), z.maxLength(200)),
  agentId: z.string().check(z.minLength(1), z.maxLength(64)),
  locale: z.optional(z.string().check(z.maxLength(20))),
  /**
   * The signed-in user, signed by the host's backend: a JWT (HS256) with `sub` (the rep's id), `site`
   * (this site key) and `exp`, keyed with the site's identity secret. The worker verifies it here.
   */
  identity: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
  /** Run the agent's saved draft, not the published agent: the owner's console only (its cookie). */
  draft: z.optional(z.boolean()),
  /**
   * The consent version the visitor agreed to in the panel (or earlier in this browser, for the same
   * version): required where the agent asks consent; the worker records it as the session opens.
   */
  consent: z.optional(z.string().check(z.minLength(1), z.maxLength(40))),
});
export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;

export interface SessionResponse {
  sessionId: string;
  /** Signed; every later call carries it as `Authorization: Bearer <token>`. */
  token: string;
  expiresAt: number;
  agent: PublicAgent;
  state: SessionState;
}

/** GET /v1/sessions/:id: the state, and the agent, so a restored widget draws its header without a new session. */
export interface RestoredSessionResponse {
  state: SessionState;
  agent: PublicAgent;
  /** Replies streaming now (the page was reloaded mid-reply): the widget reattaches to them. */
  streaming?: string[];
}

/** Answers that changed the session carry the events, so the widget folds them at once. */
interface WithEvents {
  events?: SessionEvent[];
}
export interface ToolResponse extends WithEvents {
  result: unknown;
  /** The call id ran before: this is its first run's answer (a tool call id runs once). */
  replayed?: boolean;
}
export interface ContextEditResponse extends WithEvents {
  contextVersion: number;
}
export interface StageCompleteResponse extends WithEvents {
  completed: boolean;
  checks: RuleCheck[];
}
export interface ActionResponse extends WithEvents {
  result: FieldValues;
}
export interface FeedbackResponse {
  events: SessionEvent[];
}
export interface ConsentResponse {
  events: SessionEvent[];
}
export interface TraceResponse {
  trace: SessionState["trace"];
}
