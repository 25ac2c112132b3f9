import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import type { ModelTarget } from "./model-targets.ts";
import { NEVER_FORWARDED, type UpstreamBody } from "./upstream-body.ts";

export interface ProviderRequest {
  url: string;
  init: RequestInit;
  /** The key the request carries: removed from anything the provider answers before the owner reads it. */
  key?: string;
}

/** The worker's secrets by name: a profile names the secret, never holds the key. */
function secret(env: Env, name: string): string | undefined {
  const value = (env as unknown as Record<string, unknown>)[name];
  return typeof value === "string" && value ? value : undefined;
}

type Message = UpstreamBody["messages"][number] & { reasoning_content?: string; tool_calls?: unknown[] };

/**
 * Reasoning goes back only where the provider requires it: DeepSeek's thinking mode wants every
 * assistant tool-call turn's `reasoning_content` (a 400 otherwise, which breaks an agent loop on
 * its second step); other providers ignore it or refuse the unknown field, so it is left out.
 */
function replayReasoning(messages: readonly Message[], keepOnToolTurns: boolean): Message[] {
  return messages.map((m) => {
    if (m.role !== "assistant" || !("reasoning_content" in m)) return m;
    if (keepOnToolTurns && m.tool_calls?.length && m.reasoning_content) return m;
    const { reasoning_content: _r, ...rest } = m;
    return rest as Message;
  });
}

/**
 * The HTTP request one model's provider receives for a turn: its URL and auth style (Bearer, or
 * Azure's `api-key` header with the deployment in the path and `api-version` in the query), its
 * extra body fields, and the request's fields adjusted to what the model can take.
 */
export function providerRequest(env: Env, target: ModelTarget, base: UpstreamBody): ProviderRequest {
  const p = target.provider;
  const headers: Record<string, string> = { "content-type": "application/json" };
  let url: string;
  const root = (p?.baseUrl ?? env.LLM_BASE_URL ?? "").replace(/\/+$/, "");
  if (p?.auth === "azure") {
    const deployment = encodeURIComponent(target.caps.deployment ?? target.model);
    const version = encodeURIComponent(p.apiVersion ?? "");
    url = `${root}/openai/deployments/${deployment}/chat/completions?api-version=${version}`;
  } else url = `${root}/chat/completions`;
  let key: string | undefined;
  if (!p) {
    key = env.LLM_API_KEY;
    headers.authorization = `Bearer ${key ?? ""}`;
  } else if (p.auth !== "none") {
    const name = p.keyEnv ?? "LLM_API_KEY";
    key = secret(env, name);
    if (!key)
      throw new ApiError(
        502,
        "misconfigured",
        `Provider ${p.id}'s key is not set: \`wrangler secret put ${name}\` (or .dev.vars locally)`,
      );
    if (p.auth === "azure") headers["api-key"] = key;
    else headers.authorization = `Bearer ${key}`;
  }

  // The turn's own fields win over a profile's extras: a profile may add, not redirect.
  const body: Record<string, unknown> = { ...p?.extraBody, ...target.caps.extraBody, ...base, model: target.model };
  body.messages = replayReasoning(base.messages as Message[], p?.reasoningReplay === "tool-turns");
  for (const field of NEVER_FORWARDED) delete body[field];
  if (p && !p.streamUsage) delete body.stream_options;
  if (base.tools?.length && !target.caps.parallelTools) body.parallel_tool_calls = false;
  return { url, init: { method: "POST", headers, body: JSON.stringify(body) }, key };
}
