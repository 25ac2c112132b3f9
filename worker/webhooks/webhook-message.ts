import type { WebhookEventType } from "../../shared/admin/webhook-events.ts";

/** One event for the site's endpoints: its id is the `webhook-id` every attempt and resend carries. */
export interface WebhookMessage {
  id: string;
  type: WebhookEventType;
  /** The conversation it is about: its deliveries go out in order. Null: an event of its own. */
  conversation: string | null;
  at: number;
  data: Record<string, unknown>;
}

/** The body receivers get, as Standard Webhooks suggests: `{ type, timestamp, data }`. */
export function webhookBody(m: WebhookMessage): string {
  const data = m.conversation ? { conversation: m.conversation, ...m.data } : m.data;
  return JSON.stringify({ type: m.type, timestamp: new Date(m.at).toISOString(), data });
}
