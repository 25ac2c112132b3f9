import type { Env } from "../env.ts";
import { siteIndex } from "../site-index/site-index.ts";
import { eraseSession } from "./erase-session.ts";

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
 * The owner's record of a visitor's erasure. The owner's audit trail takes this call once it exists;
 * until then the site index's list of erased conversations (GET /v1/admin/erasures) keeps the id,
 * "visitor" and the time, and nothing of the conversation.
 */
async function recordVisitorErasure(env: Env, siteKey: string, sessionId: string): Promise<void> {
  await siteIndex(env, siteKey).noteErasure(sessionId, "visitor", Date.now());
}
