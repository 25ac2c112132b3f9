import type { TokenClaims } from "../shared/token.ts";
import type { SessionRoom } from "./session/session-room.ts";

export interface Env {
  SESSION_ROOM: DurableObjectNamespace<SessionRoom>;
  CONFIG: KVNamespace;
  ASSETS: Fetcher;
  /** OpenAI-compatible base URL (…/v1). Empty: the scripted demo model answers. */
  LLM_BASE_URL?: string;
  LLM_API_KEY?: string;
  /** Tavily key for web_search; without it fixture results stand in. */
  TAVILY_API_KEY?: string;
  /** HMAC key for session tokens. */
  SESSION_SECRET?: string;
  DEMO_CHUNK_MS?: string;
}

export type Claims = TokenClaims;

/** Hono generics for this app: bindings and per-request variables set by middleware. */
export interface AppEnv {
  Bindings: Env;
  Variables: { claims: Claims };
}
