import { EVENT_TYPES } from "../../shared/protocol.ts";
import type { ToolInput } from "../../shared/tool.ts";
import type { crmAction } from "../../shared/tools/crm-action.ts";
import { loadSite } from "../config/config-store.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../errors.ts";
import { sessionRoom } from "../session/session-stub.ts";
import { redactText } from "../privacy/redact-text.ts";

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Same session, same arguments: the same key, so a retried call is recognised. */
export async function idempotencyKey(sessionId: string, input: ToolInput<typeof crmAction>): Promise<string> {
  const canonical = JSON.stringify([
    input.action,
    input.dealId,
    input.note ?? "",
    input.stage ?? "",
    input.dueDate ?? "",
  ]);
  return (await sha256Hex(`${sessionId}\n${canonical}`)).slice(0, 32);
}

/**
 * crm_action on the worker: the site's webhook, with its secret from a worker binding, and an
 * Idempotency-Key header. The outcome is kept in the session (a trace step keyed by the key): a
 * retry answers what the first call did without calling the CRM again. With the site's redaction on,
 * the note goes to the CRM redacted (the conversation keeps it whole).
 */
export async function runCrmAction(env: Env, siteKey: string, sessionId: string, input: ToolInput<typeof crmAction>) {
  const site = await loadSite(env, siteKey);
  const crm = site?.safety.crm;
  if (!crm) throw new ApiError(400, "misconfigured", "This site has no CRM configured (safety.crm)");
  const secret = (env as unknown as Record<string, unknown>)[crm.secretName];
  if (typeof secret !== "string" || !secret)
    throw new ApiError(503, "misconfigured", `Worker secret ${crm.secretName} is not set`);
  const key = await idempotencyKey(sessionId, input);
  const room = sessionRoom(env, sessionId);
  const done = (await room.getState()).trace.find((t) => t.id === `crm:${key}`);
  if (done) return { done: true, replayed: true, idempotencyKey: key, status: done.detail?.status ?? null };
  const res = await fetch(crm.webhookUrl, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${secret}`, "idempotency-key": key },
    body: JSON.stringify({
      ...input,
      ...(site?.redactTraces && input.note ? { note: redactText(input.note) } : {}),
      sessionId,
    }),
  });
  // The CRM's body is not passed on: it is the tenant's system, and may echo what it was sent.
  if (!res.ok) throw new ApiError(502, "tool_failed", `The CRM answered HTTP ${res.status}`);
  const detail = { action: input.action, dealId: input.dealId, status: res.status };
  await room.append([
    {
      id: `crm:${key}`,
      at: Date.now(),
      type: EVENT_TYPES.traceStep,
      data: { kind: "crm", name: input.action, ok: true, detail },
    },
  ]);
  return { done: true, replayed: false, idempotencyKey: key, status: res.status };
}
