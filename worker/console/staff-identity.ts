import type { Actor } from "../accounts/actor.ts";

const enc = new TextEncoder();

/**
 * Which staff member a takeover step is: a digest of who the admin middleware found (an account, a
 * named key, the bootstrap key), so the same account in two browsers is one staff member. A digest,
 * because the id travels in session events to the visitor's browser. The name the visitor sees is
 * the account's display name (or the key's), never one typed on the page.
 */
export async function staffOf(actor: Actor): Promise<{ staffId: string; name: string }> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", enc.encode(`${actor.kind}:${actor.id}`)));
  const staffId = Array.from(digest.slice(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
  return { staffId, name: actor.name };
}
