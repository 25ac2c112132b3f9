import { Hono } from "hono";
import * as ROUTES from "../../shared/wire/routes.ts";
import { SUBSCRIBABLE_EVENTS } from "../../shared/admin/webhook-events.ts";
import type { WebhookDeliveryView } from "../../shared/admin/webhook-api.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { forgetSubscriptions } from "../webhooks/emit.ts";
import { verifyWebhook } from "../webhooks/sign.ts";
import { webhookOutbox } from "../objects.ts";

/**
 * Demo mode only: the demo site sends its events to a receiver in this same worker, and the demo
 * page shows what was delivered. The endpoint is made on the page's first look, for the address the
 * page was served from (a loopback address, which only demo mode allows).
 */
export const demoWebhookRoutes = new Hono<AppEnv>();

const DEMO_SITE = "demo-site-key-0001";
const SHOWN = 12;

function demoOnly(env: AppEnv["Bindings"]) {
  if (!env.demo) throw new ApiError(404, "not_found", "The demo's webhooks exist in demo mode only (npm start)");
}

demoWebhookRoutes.get(ROUTES.demoWebhooks, async (c) => {
  demoOnly(c.env);
  const outbox = webhookOutbox(c.env, DEMO_SITE);
  const url = new URL(ROUTES.demoWebhookInbox, c.req.url).href;
  let endpoint = (await outbox.listEndpoints()).find((e) => e.url === url);
  if (!endpoint) {
    endpoint = await outbox.createEndpoint({ url, events: [...SUBSCRIBABLE_EVENTS], description: "The demo page" });
    forgetSubscriptions(DEMO_SITE);
  }
  // The RPC's type cannot carry `payload: unknown`; the object answers WebhookDeliveryView.
  const deliveries = (await outbox.deliveries({
    endpoint: endpoint.id,
    limit: SHOWN,
  })) as unknown as WebhookDeliveryView[];
  return c.json({
    endpoint: { url: endpoint.url, events: endpoint.events },
    deliveries: deliveries.map((d) => ({
      id: d.id,
      type: d.type,
      status: d.status,
      attempts: d.attempts,
      lastResponse: d.lastResponse,
      at: d.createdAt,
    })),
  });
});

/** The demo's receiver: answers 200 to what its endpoint's secret signed, 401 to anything else. */
demoWebhookRoutes.post(ROUTES.demoWebhookInbox, async (c) => {
  demoOnly(c.env);
  const url = new URL(ROUTES.demoWebhookInbox, c.req.url).href;
  const outbox = webhookOutbox(c.env, DEMO_SITE);
  const endpoint = (await outbox.listEndpoints()).find((e) => e.url === url);
  const body = await c.req.text();
  const secrets = endpoint ? await outbox.signingSecrets(endpoint.id) : [];
  if (!secrets.length || !(await verifyWebhook(c.req.raw.headers, body, secrets)))
    throw new ApiError(401, "unauthorized", "The signature does not verify");
  return c.json({ verified: true, type: (JSON.parse(body) as { type?: string }).type ?? null });
});
