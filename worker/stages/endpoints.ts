import { z } from "zod/mini";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import type { FieldValues } from "../../shared/stages/field-value.ts";
import { outboundPolicy, outboundRefusal } from "../net/resolved-address.ts";

/**
 * Endpoints that `api_call` action cards reach through the worker, so their URLs and secrets never
 * reach the browser. A tenant's live in KV (`endpoints:<tenantId>`): id -> { url, method, secret }
 * where `secret` names a worker secret sent as a bearer token. Built-in endpoints (`builtin:`)
 * answer from the worker itself, for the offline demo.
 */
const EndpointConfig = z.object({
  url: z.string().check(z.regex(/^https:\/\//)),
  method: z._default(z.enum(["GET", "POST"]), "POST"),
  secret: z.optional(z.string()),
});
const Endpoints = z.record(z.string(), EndpointConfig);

const TIMEOUT_MS = 10_000;

const BUILTIN: Record<string, (params: FieldValues) => FieldValues> = {
  // A stand-in trial registry: how many registered trials resemble the question (deterministic).
  "trial-registry": (params) => {
    const text = Object.values(params).join(" ").toLowerCase();
    const similar = (text.match(/[a-z]{4,}/g) ?? []).reduce((n, w) => (n * 31 + w.length) % 17, 7);
    return { similar_trials: similar, registry_checked: new Date().toISOString().slice(0, 10) };
  },
};

export async function callEndpoint(
  env: Env,
  tenantId: string,
  endpointId: string,
  params: FieldValues,
): Promise<FieldValues> {
  if (endpointId.startsWith("builtin:")) {
    const fn = BUILTIN[endpointId.slice("builtin:".length)];
    if (!fn) throw new ApiError(404, "not_found", `No built-in endpoint ${endpointId}`);
    return fn(params);
  }
  const parsed = Endpoints.safeParse((await env.CONFIG.get(`endpoints:${tenantId}`, "json")) ?? {});
  if (!parsed.success) throw new ApiError(502, "misconfigured", `Endpoints of tenant ${tenantId} are invalid`);
  const endpoint = parsed.data[endpointId];
  if (!endpoint) throw new ApiError(404, "not_found", `No endpoint ${endpointId} is configured`);
  const secret = endpoint.secret ? (env as unknown as Record<string, string | undefined>)[endpoint.secret] : undefined;
  // The tenant's address, and its name's DNS answer, are checked like a webhook's: the bearer secret goes there.
  const refused = await outboundRefusal(endpoint.url, outboundPolicy(env));
  if (refused)
    throw new ApiError(
      refused.code === "forbidden" ? 403 : 503,
      refused.code,
      `Endpoint ${endpointId}: ${refused.message}`,
    );
  const url = new URL(endpoint.url);
  if (endpoint.method === "GET") for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v ?? ""));
  let res: Response;
  try {
    res = await fetch(url, {
      method: endpoint.method,
      headers: { "content-type": "application/json", ...(secret ? { authorization: `Bearer ${secret}` } : {}) },
      body: endpoint.method === "POST" ? JSON.stringify(params) : undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new ApiError(502, "tool_failed", `Endpoint ${endpointId} could not be reached`);
  }
  if (!res.ok)
    throw new ApiError(502, "tool_failed", `Endpoint ${endpointId} answered ${res.status}`, { status: res.status });
  const body = await res.json().catch(() => null);
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw new ApiError(502, "tool_failed", `Endpoint ${endpointId} did not answer a JSON object`);
  return body as FieldValues;
}
