import { WEBHOOK_EVENTS } from "../../shared/admin/webhook-events.ts";
import type { Env } from "../env.ts";
import { validationFailed } from "../errors.ts";
import { emitWebhooks } from "./emit.ts";
import type { FieldValues } from "../../shared/stages/field-value.ts";

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/;
const text = (v: unknown, max: number) => (typeof v === "string" ? v.trim().slice(0, max) : "");

/**
 * A lead card's result as the owner's CRM gets it: name and e-mail required, company optional, and
 * the visitor's consent ("yes" or true) required, since a lead without it may not be contacted. Only
 * these four fields are sent, whatever else the browser posted.
 */
export function leadFrom(result: FieldValues) {
  const lead = {
    name: text(result.name, 200),
    email: text(result.email, 254).toLowerCase(),
    company: text(result.company, 200),
    consent: result.consent === "yes" || result.consent === true,
  };
  const problems = [
    ...(lead.name ? [] : [{ path: ["result", "name"], message: "a name is required" }]),
    ...(EMAIL.test(lead.email) ? [] : [{ path: ["result", "email"], message: "not an e-mail address" }]),
    ...(lead.consent ? [] : [{ path: ["result", "consent"], message: "the visitor's consent is required" }]),
  ];
  if (problems.length) throw validationFailed(problems);
  return lead;
}

/** `lead.captured`, once per conversation, card and values: a resubmitted card with new values is a new lead. */
export async function emitLead(
  env: Env,
  at: { siteKey: string; sessionId: string; agentId: string; stageId: string; cardId: string },
  lead: ReturnType<typeof leadFrom>,
) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(lead))));
  const key = [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const data = { agentId: at.agentId, stageId: at.stageId, cardId: at.cardId, lead };
  const id = `${at.sessionId}:lead:${at.cardId}:${key}`;
  return emitWebhooks(env, at.siteKey, [
    { id, type: WEBHOOK_EVENTS.leadCaptured, conversation: at.sessionId, at: Date.now(), data },
  ]);
}
