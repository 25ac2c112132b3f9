import type { AgentConfig } from "../../shared/agent-config.ts";
import type { UpstreamBody } from "./upstream-body.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import { DEMO_MODEL, demoResponse } from "./demo-upstream.ts";

const HEADERS_TIMEOUT_MS = 60_000;

export function usesDemoModel(env: Env): boolean {
  return !env.LLM_BASE_URL;
}

export function modelName(env: Env, agent: AgentConfig): string {
  return usesDemoModel(env) ? DEMO_MODEL : agent.model;
}

/**
 * Calls the provider (or the demo model) and returns its response only when it is a success;
 * a provider error becomes a 502 naming the provider's status and message.
 */
export async function callModel(env: Env, agent: AgentConfig, body: UpstreamBody): Promise<Response> {
  if (usesDemoModel(env)) return demoResponse(agent.id, body, Number(env.DEMO_CHUNK_MS ?? 25));
  const url = `${env.LLM_BASE_URL!.replace(/\/+$/, "")}/chat/completions`;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), HEADERS_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${env.LLM_API_KEY ?? ""}` },
      body: JSON.stringify(body),
      signal: abort.signal,
    });
  } catch (err) {
    if (abort.signal.aborted) throw new ApiError(504, "upstream_timeout", `Provider did not answer within ${HEADERS_TIMEOUT_MS / 1000} s`);
    throw new ApiError(502, "upstream_unreachable", `Provider could not be reached: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    clearTimeout(timer);
  }
  if (!res.ok) {
    const text = await res.text().catch(() => "");
    throw new ApiError(502, "upstream_error", `Provider answered ${res.status}: ${providerMessage(text) || res.statusText || "no message"}`, { status: res.status });
  }
  return res;
}

function providerMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    const msg = typeof parsed.error === "string" ? parsed.error : parsed.error?.message ?? parsed.message;
    if (msg) return String(msg).slice(0, 500);
  } catch { /* not JSON */ }
  return text.slice(0, 200);
}
