import type { Env } from "../env.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { jurisdictionOf } from "../placement/jurisdiction.ts";
import { eraseSession } from "./erase-session.ts";
import { siteIndex } from "../objects.ts";

/**
 * A visitor erases their own conversation (the widget's "Delete this conversation"): exactly what the
 * owner's delete erases (erase-session.ts), then the one record of it the owner keeps, naming only the
 * conversation's id, that its visitor erased it, and when. Answers whether there was a conversation.
 */
export async function eraseByVisitor(env: Env, siteKey: string, sessionId: string): Promise<boolean> {
  const held = await eraseSession(env, siteKey, sessionId, "visitor");
  if (held) await recordVisitorErasure(env, siteKey, sessionId);
  return held;
}

/**
 * The owner's record of a visitor's erasure, naming only the conversation's id: an entry of the site's
 * audit trail, and a row of the index's list of erased conversations (GET /v1/admin/erasures).
 */
async function recordVisitorErasure(env: Env, siteKey: string, sessionId: string): Promise<void> {
  const visitor = { kind: "anonymous", id: "visitor", name: "visitor" } as const;
  await recordAudit(env, siteKey, { actor: visitor, action: "visitor.erase", object: sessionId });
  await siteIndex(env, { siteKey, jurisdiction: jurisdictionOf(sessionId) }).noteErasure(
    sessionId,
    "visitor",
    Date.now(),
  );
}
