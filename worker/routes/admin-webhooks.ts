import { Hono } from "hono";
import { z } from "zod/mini";
import type { SiteConfig } from "../../shared/config/agent-config.ts";
import type { AdminAnswer } from "../../shared/wire/admin-answers.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { RotateSecretInput, WebhookEndpointInput } from "../../shared/admin/webhook-api.ts";
import { DELIVERY_STATUS } from "../../shared/admin/webhook-events.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { jsonBody } from "../middleware/validate.ts";
import { outboundUrlProblem } from "../net/outbound-url.ts";
import { forgetSubscriptions } from "../webhooks/emit.ts";
import { validationFailed } from "../errors.ts";
import { webhookOutbox } from "../objects.ts";

type AdminEnv = AppEnv & { Variables: { site: SiteConfig } };

/** The site's webhook endpoints and deliveries, for its owner (behind the admin middleware). */
export const webhookAdminRoutes = new Hono<AdminEnv>();

const MAX_ENDPOINTS = 10;
const DAY_MINUTES = 24 * 60;

const DeliveryQuery = z.object({
  endpoint: z.optional(z.string().check(z.maxLength(40))),
  status: z.optional(z.enum(DELIVERY_STATUS)),
  limit: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(200))),
});

function checkUrl(url: string, demo: boolean): void {
  const problem = outboundUrlProblem(url, demo);
  if (problem) throw validationFailed([{ path: ["url"], message: problem }]);
}

const outboxOf = (c: { env: AdminEnv["Bindings"]; var: { site: SiteConfig } }) =>
  webhookOutbox(c.env, c.var.site.siteKey);
const missing = () => new ApiError(404, "not_found", "No such webhook endpoint for this site");

webhookAdminRoutes.get(ROUTES.adminWebhooks, async (c) =>
  c.json({ endpoints: await outboxOf(c).listEndpoints() } satisfies AdminAnswer<"GET", typeof ROUTES.adminWebhooks>),
);

webhookAdminRoutes.post(ROUTES.adminWebhooks, jsonBody(WebhookEndpointInput), async (c) => {
  const input = c.req.valid("json");
  checkUrl(input.url, Boolean(c.env.demo));
  const outbox = outboxOf(c);
  if ((await outbox.listEndpoints()).length >= MAX_ENDPOINTS)
    throw new ApiError(409, "conflict", `A site has at most ${MAX_ENDPOINTS} webhook endpoints`);
  const endpoint = await outbox.createEndpoint(input);
  forgetSubscriptions(c.var.site.siteKey);
  return c.json({ endpoint } satisfies AdminAnswer<"POST", typeof ROUTES.adminWebhooks>, 201);
});

webhookAdminRoutes.put(ROUTES.adminWebhook, jsonBody(WebhookEndpointInput), async (c) => {
  const input = c.req.valid("json");
  checkUrl(input.url, Boolean(c.env.demo));
  const endpoint = await outboxOf(c).updateEndpoint(c.req.param("endpoint"), input);
  if (!endpoint) throw missing();
  forgetSubscriptions(c.var.site.siteKey);
  return c.json({ endpoint } satisfies AdminAnswer<"PUT", typeof ROUTES.adminWebhook>);
});

webhookAdminRoutes.delete(ROUTES.adminWebhook, async (c) => {
  if (!(await outboxOf(c).deleteEndpoint(c.req.param("endpoint")))) throw missing();
  forgetSubscriptions(c.var.site.siteKey);
  return c.body(null, 204);
});

webhookAdminRoutes.post(ROUTES.adminWebhookRotate, jsonBody(RotateSecretInput), async (c) => {
  const minutes = c.req.valid("json").overlapMinutes ?? DAY_MINUTES;
  const endpoint = await outboxOf(c).rotateSecret(c.req.param("endpoint"), minutes * 60_000);
  if (!endpoint) throw missing();
  return c.json({ endpoint } satisfies AdminAnswer<"POST", typeof ROUTES.adminWebhookRotate>);
});

webhookAdminRoutes.post(ROUTES.adminWebhookTest, async (c) => {
  const delivery = await outboxOf(c).sendTest(c.req.param("endpoint"));
  if (!delivery) throw missing();
  return c.json({ delivery } satisfies AdminAnswer<"POST", typeof ROUTES.adminWebhookTest>, 202);
});

webhookAdminRoutes.get(ROUTES.adminWebhookDeliveries, async (c) => {
  const q = DeliveryQuery.safeParse(c.req.query());
  if (!q.success) throw new ApiError(400, "bad_request", `Invalid query: ${q.error.issues[0]?.message}`);
  return c.json({ deliveries: await outboxOf(c).deliveries(q.data) } satisfies AdminAnswer<
    "GET",
    typeof ROUTES.adminWebhookDeliveries
  >);
});

webhookAdminRoutes.post(ROUTES.adminWebhookResend, async (c) => {
  const id = Number(c.req.param("delivery"));
  const delivery = Number.isSafeInteger(id) && id > 0 ? await outboxOf(c).resend(id) : null;
  if (!delivery) throw new ApiError(404, "not_found", "No such delivery for this site");
  return c.json({ delivery } satisfies AdminAnswer<"POST", typeof ROUTES.adminWebhookResend>, 202);
});
