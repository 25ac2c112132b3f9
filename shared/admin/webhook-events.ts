/**
 * The events a site's webhook endpoints may subscribe to, declared once. The worker mints every one
 * of them (their type, id and time); `message.created` is off unless an endpoint names it.
 */
export const WEBHOOK_EVENTS = {
  conversationStarted: "conversation.started",
  messageCreated: "message.created",
  escalationRaised: "escalation.raised",
  personRequested: "person.requested",
  contactLeft: "contact.left",
  leadCaptured: "lead.captured",
  stageCompleted: "stage.completed",
  adviceRecorded: "advice.recorded",
  feedbackGiven: "feedback.given",
  bookingCreated: "booking.created",
  bookingCancelled: "booking.cancelled",
  conversationErased: "conversation.erased",
  /** The sales coach's crm_action: the rep's CRM update, delivered once per idempotency key. */
  crmAction: "crm.action",
  /** Sent by the owner from the console to try an endpoint; no endpoint subscribes to it. */
  test: "webhook.test",
} as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[keyof typeof WEBHOOK_EVENTS];

/** What an endpoint may list: every event but the console's test. */
export const SUBSCRIBABLE_EVENTS = Object.values(WEBHOOK_EVENTS).filter((t) => t !== WEBHOOK_EVENTS.test) as [
  WebhookEventType,
  ...WebhookEventType[],
];

/** An endpoint created without a list gets these: every event but each message (a busy site's many). */
export const DEFAULT_EVENTS = SUBSCRIBABLE_EVENTS.filter((t) => t !== WEBHOOK_EVENTS.messageCreated);

/** A delivery's state: waiting for its turn or its next attempt, accepted by the receiver, or given up. */
export const DELIVERY_STATUS = ["pending", "delivered", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUS)[number];
