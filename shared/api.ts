import { z } from "zod/mini";
import type { PublicAgent } from "./agent-config.ts";
import type { SessionState } from "./session.ts";

/** Route bodies of Parley's own JSON routes (the chat route's body is in chat.ts). */
export const CreateSessionRequest = z.object({
  siteKey: z.string().check(z.minLength(1), z.maxLength(200)),
  agentId: z.string().check(z.minLength(1), z.maxLength(64)),
  locale: z.optional(z.string().check(z.maxLength(20))),
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

