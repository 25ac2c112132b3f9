import type { Env } from "../env.ts";
import { IsolateCache } from "../isolate-cache.ts";
import type { WebhookMessage } from "./webhook-message.ts";
import { webhookOutbox } from "../objects.ts";

/** How long a session's object trusts what it read of the site's subscriptions (an endpoint added shows within it). */
export const SUBSCRIPTIONS_CACHE_MS = 30_000;
const subscriptions = new IsolateCache<ReadonlySet<string>>(SUBSCRIPTIONS_CACHE_MS);

/** The admin routes changed the site's endpoints: this isolate reads them afresh. */
export function forgetSubscriptions(siteKey: string): void {
  subscriptions.delete(siteKey);
}

/**
 * Hands events to the site's outbox; a site with no endpoint for them costs no call. The caller does
 * not wait on any receiver: delivery runs in the outbox's alarm.
 */
export async function emitWebhooks(env: Env, siteKey: string, messages: WebhookMessage[]): Promise<number> {
  if (!messages.length || !env.WEBHOOK_OUTBOX) return 0;
  const outbox = webhookOutbox(env, siteKey);
  const wanted = await subscriptions.through(siteKey, async () => new Set(await outbox.subscribedTypes()));
  const sent = messages.filter((m) => wanted.has(m.type));
  return sent.length ? outbox.emit(sent) : 0;
}
