import { z } from "zod/mini";
import { SUBSCRIBABLE_EVENTS, type DeliveryStatus, type WebhookEventType } from "./webhook-events.ts";

/** An endpoint as its owner writes it (POST to create, PUT to change its URL or events). */
export const WebhookEndpointInput = z.object({
  url: z.string().check(z.minLength(8), z.maxLength(2000)),
  events: z.optional(z.array(z.enum(SUBSCRIBABLE_EVENTS)).check(z.minLength(1), z.maxLength(20))),
  description: z.optional(z.string().check(z.maxLength(200))),
});
export type WebhookEndpointInput = z.infer<typeof WebhookEndpointInput>;

/** Rotating a secret: the old one keeps being signed with for `overlapMinutes` (default a day, at most a week). */
export const RotateSecretInput = z.object({
  overlapMinutes: z.optional(z.int().check(z.gte(0), z.lte(7 * 24 * 60))),
});

export interface WebhookEndpointView {
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string;
  /**
   * The signing secret's start and last four characters (`whsec_…x7Qz`), to tell which one a receiver
   * holds. The whole secret is answered once, when it is made (WebhookEndpointWithSecret).
   */
  secretHint: string;
  /** While set, deliveries are signed with the previous secret too, until this time (ms). */
  previousSecretUntil: number | null;
  createdAt: number;
}

/**
 * The answer that makes a secret (an endpoint created, a secret rotated): the only time it is shown whole,
 * as Stripe and Svix do, so a console session left open cannot read it again later.
 */
export type WebhookEndpointWithSecret = WebhookEndpointView & {
  /** `whsec_…`: what the receiver verifies with (Standard Webhooks). */
  secret: string;
};

export interface DeliveryAttempt {
  at: number;
  ms: number;
  /** The receiver's HTTP status, or null when none came (timeout, refused connection). */
  status: number | null;
  error: string | null;
}

export interface WebhookDeliveryView {
  id: number;
  endpointId: string;
  /** The `webhook-id` header: one per event, the same on every attempt and resend. */
  messageId: string;
  type: WebhookEventType;
  conversation: string | null;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number | null;
  createdAt: number;
  lastStatus: number | null;
  lastError: string | null;
  /** The start of the receiver's last answer (at most 1 KB). */
  lastResponse: string | null;
  payload: unknown;
  history: DeliveryAttempt[];
}
