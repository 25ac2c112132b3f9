import type { AgentConfig } from "../../shared/agent-config.ts";
import type { UpstreamBody } from "./upstream-body.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import { DEMO_MODEL, demoResponse } from "./demo-upstream.ts";
import type { ProviderStream } from "./relay.ts";
import { retryAfterMs } from "../../shared/retry-after.ts";

/** Per attempt, until the first byte of the reply (streamed) or the whole reply (not streamed). */
const TIMEOUT_MS = { stream: 30_000, json: 60_000 };
/** Waits before retry 1 and 2; a provider's Retry-After is honoured up to the cap. */
const RETRY_WAITS_MS = [200, 600] as const;
const RETRY_AFTER_CAP_MS = 2_000;
const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);

export function usesDemoModel(env: Env): boolean {
  return !env.LLM_BASE_URL;
}

export function modelName(env: Env, agent: AgentConfig): string {
  return usesDemoModel(env) ? DEMO_MODEL : agent.model;
}

/** What happened on the way to an answer: filled in by callModel, read by the turn's trace. */
export interface CallLog {
  attempts: number;
  retries: Array<{ reason: string; status: number | null; waitMs: number }>;
}
export const newCallLog = (): CallLog => ({ attempts: 0, retries: [] });

type Attempt = { ok: true; res: Response } | { ok: false; error: ApiError; retryable: boolean; retryAfterMs?: number };

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Calls the provider (or the demo model) and returns its response only when it is a success. A
 * timeout, a reset, a 429 or a 5xx is retried (at most twice, with backoff) as long as nothing of
 * the reply has been passed on — a streamed reply is returned only once its first bytes arrived, so
 * a stream that breaks before then is retried too. After that, a break is the relay's to report.
 */
export async function callModel(env: Env, agent: AgentConfig, body: UpstreamBody, log: CallLog = newCallLog()): Promise<Response> {
  if (usesDemoModel(env)) {
    log.attempts = 1;
    return demoResponse(agent.id, body, Number(env.DEMO_CHUNK_MS ?? 25));
  }
  const url = `${env.LLM_BASE_URL!.replace(/\/+$/, "")}/chat/completions`;
  const init = {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${env.LLM_API_KEY ?? ""}` },
    body: JSON.stringify(body),
  };
  const timeoutMs = Number(env.LLM_TIMEOUT_MS) || (body.stream ? TIMEOUT_MS.stream : TIMEOUT_MS.json);
  for (let retry = 0; ; retry++) {
    log.attempts++;
    const outcome = await attempt(url, init, !!body.stream, timeoutMs);
    if (outcome.ok) return outcome.res;
    if (!outcome.retryable || retry >= RETRY_WAITS_MS.length) throw outcome.error;
    const base = RETRY_WAITS_MS[retry];
    const waitMs = outcome.retryAfterMs === undefined ? base : Math.min(Math.max(base, outcome.retryAfterMs), RETRY_AFTER_CAP_MS);
    log.retries.push({ reason: outcome.error.code, status: outcome.error.extra.status ?? null, waitMs });
    await sleep(waitMs);
  }
}

async function attempt(url: string, init: RequestInit, stream: boolean, timeoutMs: number): Promise<Attempt> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  const broken = (err: unknown, what: string): Attempt => ({
    ok: false,
    retryable: true,
    error: abort.signal.aborted
      ? new ApiError(504, "upstream_timeout", `Provider did not answer within ${timeoutMs / 1000} s`)
      : new ApiError(502, "upstream_unreachable", `Provider ${what}: ${err instanceof Error ? err.message : String(err)}`),
  });
  try {
    let res: Response;
    try {
      res = await fetch(url, { ...init, signal: abort.signal });
    } catch (err) {
      return broken(err, "could not be reached");
    }
    if (!res.ok) {
      const text = await res.text().catch(() => "");
      return {
        ok: false,
        retryable: RETRYABLE_STATUS.has(res.status),
        retryAfterMs: retryAfterMs(res.headers.get("retry-after")),
        error: new ApiError(502, "upstream_error", `Provider answered ${res.status}: ${providerMessage(text) || res.statusText || "no message"}`, { status: res.status }),
      };
    }
    if (!stream) {
      // A JSON reply is small: read it whole here, so a connection lost halfway is retried too.
      try {
        return { ok: true, res: new Response(await res.text(), { status: res.status, headers: res.headers }) };
      } catch (err) {
        return broken(err, "broke off its reply");
      }
    }
    if (!res.body) return { ok: false, retryable: true, error: new ApiError(502, "upstream_error", "Provider answered without a body") };
    const reader = res.body.getReader();
    let first: ReadableStreamReadResult<Uint8Array>;
    try {
      first = await reader.read();
    } catch (err) {
      return broken(err, "broke off before sending anything");
    }
    if (first.done) return { ok: false, retryable: true, error: new ApiError(502, "upstream_error", "Provider's stream ended before sending anything") };
    reader.releaseLock();
    return { ok: true, res: withFirstChunk(new Response(null, { status: res.status, headers: res.headers }), { first: first.value, rest: res.body, abort: () => abort.abort() }) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A streamed reply whose first chunk was read (to know the stream had begun before giving up the
 * chance to retry): the chunk, the rest of the body and the request's abort travel with the response.
 */
const startedStreams = new WeakMap<Response, ProviderStream>();

function withFirstChunk(res: Response, stream: ProviderStream): Response {
  startedStreams.set(res, stream);
  return res;
}

/** The stream of a streamed reply from callModel (the demo model's included). */
export function replyStream(res: Response): ProviderStream | null {
  return startedStreams.get(res) ?? (res.body ? { first: null, rest: res.body } : null);
}

function providerMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    const msg = typeof parsed.error === "string" ? parsed.error : parsed.error?.message ?? parsed.message;
    if (msg) return String(msg).slice(0, 500);
  } catch { /* not JSON */ }
  return text.slice(0, 200);
}
