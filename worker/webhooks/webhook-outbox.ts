import { DurableObject } from "cloudflare:workers";
import type {
  WebhookDeliveryView,
  WebhookEndpointInput,
  WebhookEndpointView,
  WebhookEndpointWithSecret,
} from "../../shared/admin/webhook-api.ts";
import { DEFAULT_EVENTS, WEBHOOK_EVENTS, type DeliveryStatus } from "../../shared/admin/webhook-events.ts";
import type { Env } from "../env.ts";
import { attemptDelivery } from "./deliver.ts";
import { outboundPolicy } from "../net/resolved-address.ts";
import { maskedEndpoint, OutboxStore, secretHint, type DueDelivery } from "./outbox-store.ts";
import { nextAttempt, retryable } from "./retry-schedule.ts";
import { newWebhookSecret } from "./sign.ts";
import { webhookBody, type WebhookMessage } from "./webhook-message.ts";

/** Deliveries attempted at once (different lanes); the rest wait for the next round of the alarm. */
const PARALLEL = 6;
/** An alarm run stops starting rounds after this; the next alarm goes on. */
const ROUND_BUDGET_MS = 20_000;
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * One per site: its webhook endpoints and their outbox. Events are queued here by one RPC (the
 * session's object or a tool does not wait for any receiver), and delivered from the alarm: each
 * attempt signed, retried on the schedule (retry-schedule.ts) while the receiver times out or
 * answers 429 or 5xx, no sooner than its Retry-After, then marked failed. At least once: a receiver
 * dedupes by `webhook-id`.
 */
export class WebhookOutbox extends DurableObject<Env> {
  private readonly store: OutboxStore;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new OutboxStore(ctx.storage.sql);
  }

  /** Every event type some endpoint listed (emit.ts skips the call for a site that wants none). */
  async subscribedTypes(): Promise<string[]> {
    return [...new Set(this.store.endpoints().flatMap((e) => e.events))];
  }

  /** The endpoints, each secret as a hint: the whole one is answered only by the call that makes it. */
  async listEndpoints(): Promise<WebhookEndpointView[]> {
    return this.store.endpoints().map(maskedEndpoint);
  }

  /** The secrets an endpoint's deliveries are signed with now (the demo's own receiver verifies with them). */
  async signingSecrets(id: string): Promise<string[]> {
    return this.store.endpoint(id) ? this.store.secrets(id, Date.now()) : [];
  }

  async createEndpoint(input: WebhookEndpointInput): Promise<WebhookEndpointWithSecret> {
    const secret = newWebhookSecret();
    const endpoint: WebhookEndpointWithSecret = {
      id: `ep_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`,
      url: input.url,
      events: input.events ?? DEFAULT_EVENTS,
      description: input.description ?? "",
      secret,
      secretHint: secretHint(secret),
      previousSecretUntil: null,
      createdAt: Date.now(),
    };
    this.store.putEndpoint(endpoint, null);
    return endpoint;
  }

  async updateEndpoint(id: string, input: WebhookEndpointInput): Promise<WebhookEndpointView | null> {
    const current = this.store.endpoint(id);
    if (!current) return null;
    const next = { ...current, url: input.url, events: input.events ?? current.events };
    if (input.description !== undefined) next.description = input.description;
    this.store.putEndpoint(next, this.previousSecret(id));
    return maskedEndpoint(next);
  }

  async deleteEndpoint(id: string): Promise<boolean> {
    return this.store.deleteEndpoint(id);
  }

  /** A new secret; the old one signs too for `overlapMs`, so receivers can switch without losing any. */
  async rotateSecret(id: string, overlapMs: number): Promise<WebhookEndpointWithSecret | null> {
    const current = this.store.endpoint(id);
    if (!current) return null;
    const until = overlapMs > 0 ? Date.now() + overlapMs : null;
    const secret = newWebhookSecret();
    const next = { ...current, secret, secretHint: secretHint(secret), previousSecretUntil: until };
    this.store.putEndpoint(next, until ? current.secret : null);
    return next;
  }

  private previousSecret(id: string): string | null {
    const [, prev] = this.store.secrets(id, Date.now());
    return prev ?? null;
  }

  /** Queues each message for every endpoint that listed its type; answers how many deliveries that made. */
  async emit(messages: WebhookMessage[]): Promise<number> {
    const endpoints = this.store.endpoints();
    const now = Date.now();
    let queued = 0;
    for (const m of messages)
      for (const e of endpoints) if (e.events.includes(m.type) && this.queue(e.id, m, now)) queued++;
    if (queued) await this.schedule();
    return queued;
  }

  /** The console's test event, to one endpoint. */
  async sendTest(id: string): Promise<WebhookDeliveryView | null> {
    if (!this.store.endpoint(id)) return null;
    const now = Date.now();
    const m: WebhookMessage = {
      id: `test_${crypto.randomUUID()}`,
      type: WEBHOOK_EVENTS.test,
      conversation: null,
      at: now,
      data: { note: "A test event sent from the console" },
    };
    this.queue(id, m, now);
    await this.schedule();
    return this.store.deliveries({ endpoint: id, limit: 1 })[0] ?? null;
  }

  private queue(endpoint: string, m: WebhookMessage, now: number): boolean {
    const payload = webhookBody(m);
    return this.store.enqueue({ endpoint, msgId: m.id, type: m.type, conversation: m.conversation, payload, now });
  }

  async deliveries(q: { endpoint?: string; status?: DeliveryStatus; limit?: number }): Promise<WebhookDeliveryView[]> {
    return this.store.deliveries({ ...q, limit: Math.min(q.limit ?? 50, 200) });
  }

  async resend(id: number): Promise<WebhookDeliveryView | null> {
    if (!this.store.resend(id, Date.now())) return null;
    await this.schedule();
    return this.store.delivery(id);
  }

  /** The conversation was erased: what is queued about it goes, and its endpoints hear of the erasure. */
  async conversationErased(conversation: string, agentId: string): Promise<void> {
    this.store.forgetConversation(conversation);
    const at = Date.now();
    const m: WebhookMessage = {
      id: `${conversation}:erased`,
      type: WEBHOOK_EVENTS.conversationErased,
      conversation,
      at,
      data: { agentId },
    };
    await this.emit([m]);
  }

  override async alarm(): Promise<void> {
    const stopAt = Date.now() + ROUND_BUDGET_MS;
    for (;;) {
      const now = Date.now();
      const due = this.store.heads(PARALLEL * 4).filter((h) => h.nextAt <= now);
      if (!due.length || now > stopAt) break;
      await Promise.all(due.slice(0, PARALLEL).map((d) => this.attempt(d)));
    }
    await this.schedule();
  }

  private async attempt(d: DueDelivery): Promise<void> {
    const endpoint = this.store.endpoint(d.endpoint);
    if (!endpoint) return;
    const at = Date.now();
    const outcome = await attemptDelivery(
      { url: endpoint.url, secrets: this.store.secrets(endpoint.id, at) },
      { id: d.msgId, body: d.payload },
      { timeoutMs: Number(this.env.WEBHOOK_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS, policy: outboundPolicy(this.env) },
    );
    const scale = Number(this.env.WEBHOOK_RETRY_SCALE) || 1;
    const ended = Date.now();
    const again = !outcome.ok && retryable(outcome.status);
    const next = again ? nextAttempt(d, ended, outcome.retryAfterMs, scale) : null;
    const status: DeliveryStatus = outcome.ok ? "delivered" : next === null ? "failed" : "pending";
    // A Retry-After past the 24 h fails the delivery now rather than at the window's end: no attempt the
    // receiver would take is left, and the conversation's later events need not wait behind it.
    const pastWindow = again && next === null && nextAttempt(d, ended, null, scale) !== null;
    const error = pastWindow ? `${outcome.error}; its Retry-After ends after the 24 h of retries` : outcome.error;
    this.store.recordAttempt(
      d.rowid,
      { at, ms: outcome.ms, status: outcome.status, error, body: outcome.body },
      status,
      next,
    );
  }

  private async schedule(): Promise<void> {
    const [head] = this.store.heads(1);
    if (!head) return;
    const current = await this.ctx.storage.getAlarm();
    if (current === null || head.nextAt < current) await this.ctx.storage.setAlarm(Math.max(head.nextAt, Date.now()));
  }
}
