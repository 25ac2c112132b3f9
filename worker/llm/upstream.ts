import type { AgentConfig } from "../../shared/config/agent-config.ts";
import type { ChatCompletion } from "../../shared/chat/chat.ts";
import type { UpstreamBody } from "./upstream-body.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import type { ModelReply } from "./model-reply.ts";
import { capabilitiesOf } from "../../shared/config/provider-config.ts";
import type { ModelTarget } from "./model-targets.ts";
import { providerRequest, type ProviderRequest } from "./provider-request.ts";
import { providerError, providerFailure, type ProviderFailure } from "./provider-errors.ts";

/** Per attempt, until the first byte of the reply (streamed) or the whole reply (not streamed). */
const TIMEOUT_MS = { stream: 30_000, json: 60_000 };
/** Waits before retry 1 and 2; a provider's Retry-After is honoured up to the cap. */
const RETRY_WAITS_MS = [200, 600] as const;
const RETRY_AFTER_CAP_MS = 2_000;

/** The name the demo model answers under (in traces and usage). */
const DEMO_MODEL = "parley-demo";

/** Replies come from the scripted demo model: demo mode on and no provider configured. */
export function usesDemoModel(env: Env): boolean {
  return !!env.demo && !env.LLM_BASE_URL;
}

export function modelName(env: Env, agent: AgentConfig): string {
  return usesDemoModel(env) ? DEMO_MODEL : agent.model;
}

/** What happened on the way to an answer: filled in by callModel, read by the turn's trace. */
export interface CallLog {
  attempts: number;
  retries: Array<{ reason: string; status: number | null; waitMs: number }>;
  /** Each move to the next model in the site's list, and why. */
  fallbacks: Array<{ from: string; to: string; reason: string; status: number | null; retryAfterMs?: number }>;
  /** The model that answered (or was last asked). */
  model?: string;
}
export const newCallLog = (): CallLog => ({ attempts: 0, retries: [], fallbacks: [] });

type Attempt = { ok: true; reply: ModelReply } | ({ ok: false } & ProviderFailure);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The worker's own provider (LLM_BASE_URL), for callers without a site's profiles. */
const envTarget = (agent: Pick<AgentConfig, "model">): ModelTarget[] => [
  { provider: null, model: agent.model, caps: capabilitiesOf(undefined, agent.model), field: "model" },
];

/**
 * Calls the provider (or, in demo mode without one, the demo model) and returns its reply only
 * when it is a success: the parsed completion, or the stream with its first chunk read. A timeout,
 * a reset, a 429 or a 5xx while nothing of the reply has been passed on moves to the next model in
 * `targets` at once (the site's fallbacks); the last one is retried (at most twice, with
 * backoff). A streamed reply is returned only once its first bytes arrived, so a stream that breaks
 * before then counts as such a failure. After that, a break is the relay's to report.
 */
export async function callModel(
  env: Env,
  agent: Pick<AgentConfig, "id" | "model">,
  body: UpstreamBody,
  log: CallLog = newCallLog(),
  targets: ModelTarget[] = envTarget(agent),
  /** Ends the request (and any retry) when the turn is refused after it was sent. */
  cancel?: AbortSignal,
): Promise<ModelReply> {
  if (!env.LLM_BASE_URL && targets.every((t) => !t.provider)) {
    if (!env.demo) {
      const message = "No model provider is configured: set LLM_BASE_URL and LLM_API_KEY, or the site's providers";
      throw new ApiError(503, "provider_not_configured", message);
    }
    log.attempts = 1;
    log.model = DEMO_MODEL;
    return env.demo.model(agent.id, body, Number(env.DEMO_CHUNK_MS ?? 25));
  }
  const timeoutMs = Number(env.LLM_TIMEOUT_MS) || (body.stream ? TIMEOUT_MS.stream : TIMEOUT_MS.json);
  for (let t = 0; t < targets.length; t++) {
    const target = targets[t];
    const { url, init, key } = providerRequest(env, target, body);
    const name = target.provider?.id ?? hostOf(url);
    log.model = target.model;
    for (let retry = 0; ; retry++) {
      log.attempts++;
      const outcome = await attempt({ url, init, key }, !!body.stream, timeoutMs, name, cancel);
      if (outcome.ok) return outcome.reply;
      if (!outcome.retryable || cancel?.aborted) throw outcome.error;
      const next = targets[t + 1];
      if (next) {
        const { code: reason, extra } = outcome.error;
        const status = extra.status ?? null;
        log.fallbacks.push({ from: target.model, to: next.model, reason, status, retryAfterMs: outcome.retryAfterMs });
        break;
      }
      if (retry >= RETRY_WAITS_MS.length) throw outcome.error;
      const base = RETRY_WAITS_MS[retry];
      const asked = outcome.retryAfterMs;
      const waitMs = asked === undefined ? base : Math.min(Math.max(base, asked), RETRY_AFTER_CAP_MS);
      log.retries.push({ reason: outcome.error.code, status: outcome.error.extra.status ?? null, waitMs });
      await sleep(waitMs);
    }
  }
  throw providerError(502, "misconfigured", "No model to ask: the agent and the site name no model");
}

/**
 * One request to one provider. Every failure is a ProviderError: what the provider or the network said
 * names the provider's host and may quote its key, so it is the owner's to read, not the visitor's.
 */
async function attempt(
  { url, init, key }: ProviderRequest,
  stream: boolean,
  timeoutMs: number,
  provider: string,
  cancel?: AbortSignal,
): Promise<Attempt> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  cancel?.addEventListener("abort", () => abort.abort(), { once: true });
  const secrets = { secrets: [key] };
  const failed = (retryable: boolean, ownerText: string): Attempt => ({
    ok: false,
    retryable,
    error: providerError(502, "upstream_error", ownerText, secrets),
  });
  const broken = (err: unknown, what: string): Attempt => ({
    ok: false,
    retryable: true,
    error: abort.signal.aborted
      ? providerError(504, "upstream_timeout", `Provider ${provider} did not answer within ${timeoutMs / 1000} s`)
      : providerError(502, "upstream_unreachable", `Provider ${provider} ${what}: ${errorText(err)}`, secrets),
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
      const retryAfter = res.headers.get("retry-after");
      return { ok: false, ...providerFailure(provider, res.status, text || res.statusText, retryAfter, [key]) };
    }
    if (!stream) {
      // A JSON reply is small: read it whole here, so a connection lost halfway is retried too.
      let text: string;
      try {
        text = await res.text();
      } catch (err) {
        return broken(err, "broke off its reply");
      }
      try {
        return { ok: true, reply: { kind: "json", completion: JSON.parse(text) as ChatCompletion } };
      } catch {
        return failed(false, `Provider ${provider} answered with a body that is not JSON: ${text.slice(0, 200)}`);
      }
    }
    if (!res.body) return failed(true, `Provider ${provider} answered without a body`);
    const reader = res.body.getReader();
    let first: ReadableStreamReadResult<Uint8Array>;
    try {
      first = await reader.read();
    } catch (err) {
      return broken(err, "broke off before sending anything");
    }
    if (first.done) return failed(true, `Provider ${provider}'s stream ended before sending anything`);
    reader.releaseLock();
    const started = { first: first.value, rest: res.body, abort: () => abort.abort() };
    return { ok: true, reply: { kind: "stream", stream: started } };
  } finally {
    clearTimeout(timer);
  }
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The host a URL names, for messages about the worker's own provider (LLM_BASE_URL). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "LLM_BASE_URL";
  }
}
