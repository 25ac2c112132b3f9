import { EVENT_TYPES } from "../../shared/wire/protocol.ts";
import type { ToolInput } from "../../shared/tools/tool.ts";
import type { crmAction } from "../../shared/tools/crm-action.ts";
import { WEBHOOK_EVENTS } from "../../shared/admin/webhook-events.ts";
import type { Env } from "../env.ts";
import { loadSite } from "../config/config-store.ts";
import { ApiError } from "../errors.ts";
import { redactText } from "../privacy/redact-text.ts";
import { sessionRoom, webhookOutbox } from "../objects.ts";

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
 * crm_action on the worker: a `crm.action` event to the site's endpoints that listed it, signed and
 * retried by the outbox (so the CRM need not answer within the rep's turn). Its `webhook-id` is
 * the idempotency key, so a retried call queues nothing new and a CRM that dedupes by that id acts
 * once; the call is kept in the session (a trace step keyed by the key) and answered from there.
 */
export async function runCrmAction(
  env: Env,
  siteKey: string,
  sessionId: string,
  input: ToolInput<typeof crmAction>,
  rep?: string,
) {
  const outbox = webhookOutbox(env, siteKey);
  if (!(await outbox.subscribedTypes()).includes(WEBHOOK_EVENTS.crmAction))
    throw new ApiError(400, "misconfigured", "No webhook endpoint of this site listens for crm.action");
  const key = await idempotencyKey(sessionId, input);
  const room = sessionRoom(env, sessionId);
  const done = (await room.getState()).trace.find((t) => t.id === `crm:${key}`);
  if (done) return { done: true, replayed: true, idempotencyKey: key, endpoints: done.detail?.endpoints ?? null };
  // With the site's redaction on, the note goes to the CRM redacted (the conversation keeps it whole).
  const site = await loadSite(env, siteKey);
  const note = site?.redactTraces && input.note ? { note: redactText(input.note) } : {};
  const data = { idempotencyKey: key, rep: rep ?? null, ...input, ...note };
  const at = Date.now();
  const endpoints = await outbox.emit([
    { id: `crm_${key}`, type: WEBHOOK_EVENTS.crmAction, conversation: sessionId, at, data },
  ]);
  const detail = { action: input.action, dealId: input.dealId, endpoints };
  await room.append([
    { id: `crm:${key}`, at, type: EVENT_TYPES.traceStep, data: { kind: "crm", name: input.action, ok: true, detail } },
  ]);
  return { done: true, replayed: false, idempotencyKey: key, endpoints };
}
