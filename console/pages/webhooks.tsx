import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import type { WebhookDeliveryView, WebhookEndpointView } from "../../shared/admin/webhook-api.ts";
import { DEFAULT_EVENTS, SUBSCRIBABLE_EVENTS } from "../../shared/admin/webhook-events.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { api } from "../api.ts";
import { t } from "../i18n.ts";
import type { PageProps } from "../pages.ts";
import { TextField } from "../form/field.tsx";
import { CopyButton } from "../form/copy-button.tsx";
import { focusFirstInvalid, errorUnder, formErrors, type FormErrors } from "../form/issues.ts";
import { DeliveryTable } from "./webhook-deliveries.tsx";

const S = {
  title: { en: "Webhooks", "zh-CN": "Webhook" },
  intro: {
    en: "Signed events (Standard Webhooks) sent to your systems. Verify each with the endpoint's secret.",
    "zh-CN": "发送到您系统的签名事件(Standard Webhooks)。请用端点的密钥验证每个请求。",
  },
  endpoints: { en: "Endpoints", "zh-CN": "端点" },
  none: { en: "No endpoints yet.", "zh-CN": "还没有端点。" },
  secret: { en: "Signing secret", "zh-CN": "签名密钥" },
  test: { en: "Send a test event", "zh-CN": "发送测试事件" },
  rotate: {
    en: "Rotate the secret (old one valid for 24 h)",
    "zh-CN": "轮换密钥(旧密钥 24 小时内仍有效)",
  },
  remove: { en: "Remove", "zh-CN": "删除" },
  add: { en: "Add an endpoint", "zh-CN": "添加端点" },
  url: { en: "URL (https)", "zh-CN": "URL(https)" },
  events: { en: "Events", "zh-CN": "事件" },
  save: { en: "Add endpoint", "zh-CN": "添加端点" },
  sent: { en: "Test event queued.", "zh-CN": "测试事件已入队。" },
  rotated: {
    en: "New secret made; the old one still signs for 24 h.",
    "zh-CN": "已生成新密钥;旧密钥 24 小时内仍签名。",
  },
  removed: { en: "Removed.", "zh-CN": "已删除。" },
  shown: {
    en: "Signing secret of {url}: copy it now, you will not see it again",
    "zh-CN": "{url} 的签名密钥:请立即复制,之后不会再显示",
  },
  added: { en: "Added.", "zh-CN": "已添加。" },
};

/**
 * Webhooks: the site's endpoints (add, test, rotate, remove) and every delivery with its attempts. A
 * signing secret is shown whole once, from the answer that made it; the list has only its last characters.
 */
export default function Webhooks(_: PageProps) {
  const endpoints = useSignal<WebhookEndpointView[] | null>(null);
  const deliveries = useSignal<WebhookDeliveryView[]>([]);
  const url = useSignal("");
  const events = useSignal<string[]>([...DEFAULT_EVENTS]);
  const errors = useSignal<FormErrors>({ fields: {}, summary: "" });
  const status = useSignal("");
  const made = useSignal<{ url: string; secret: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const reload = async () => {
    try {
      const [e, d] = await Promise.all([
        api.get(ROUTES.adminWebhooks),
        api.get(ROUTES.adminWebhookDeliveries, { query: { limit: 50 } }),
      ]);
      endpoints.value = e.endpoints;
      deliveries.value = d.deliveries;
    } catch (err) {
      errors.value = formErrors(err);
    }
  };
  useEffect(() => void reload(), []);

  async function act(run: () => Promise<unknown>, done: string) {
    try {
      const answer = await run();
      const endpoint = (answer as { endpoint?: { url: string; secret?: string } } | undefined)?.endpoint;
      made.value = endpoint?.secret ? { url: endpoint.url, secret: endpoint.secret } : null;
      status.value = done;
      errors.value = { fields: {}, summary: "" };
      await reload();
    } catch (err) {
      errors.value = formErrors(err);
    }
  }

  async function add(e: Event) {
    e.preventDefault();
    await act(() => api.post(ROUTES.adminWebhooks, { json: { url: url.value, events: events.value } }), t(S.added));
    if (errors.value.summary) focusFirstInvalid(formRef.current);
    else url.value = "";
  }

  const at = (id: string) => ({ params: { endpoint: id } });
  const toggle = (name: string, on: boolean) =>
    (events.value = on ? [...events.value, name] : events.value.filter((x) => x !== name));
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">{t(S.title)}</h1>
      <p class="hint">{t(S.intro)}</p>
      {errors.value.summary && <p role="alert">{errors.value.summary}</p>}
      <h2>{t(S.endpoints)}</h2>
      {endpoints.value?.length === 0 && <p>{t(S.none)}</p>}
      {endpoints.value?.map((ep) => (
        <article key={ep.id} class="endpoint" aria-label={ep.url}>
          <h3>
            <code>{ep.url}</code>
          </h3>
          <p class="muted">{ep.events.join(", ")}</p>
          <p>
            {t(S.secret)}: <code class="secret">{ep.secretHint}</code>
          </p>
          <button type="button" onClick={() => act(() => api.post(ROUTES.adminWebhookTest, at(ep.id)), t(S.sent))}>
            {t(S.test)}
          </button>{" "}
          <button
            type="button"
            class="secondary"
            onClick={() => act(() => api.post(ROUTES.adminWebhookRotate, { ...at(ep.id), json: {} }), t(S.rotated))}
          >
            {t(S.rotate)}
          </button>{" "}
          <button
            type="button"
            class="danger"
            aria-label={`${t(S.remove)}: ${ep.url}`}
            onClick={() => act(() => api.delete(ROUTES.adminWebhook, at(ep.id)), t(S.removed))}
          >
            {t(S.remove)}
          </button>
        </article>
      ))}
      {made.value && (
        <div class="field">
          <label for="hook-secret">{t(S.shown).replace("{url}", made.value.url)}</label>
          <input id="hook-secret" readOnly value={made.value.secret} onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={made.value.secret} label={`${t(S.secret)} ${made.value.url}`} />
        </div>
      )}
      <form ref={formRef} onSubmit={add} noValidate>
        <h2>{t(S.add)}</h2>
        <TextField
          id="hook-url"
          label={t(S.url)}
          value={url.value}
          onValue={(v) => (url.value = v)}
          error={errorUnder(errors.value, "url")}
        />
        <fieldset>
          <legend>{t(S.events)}</legend>
          {SUBSCRIBABLE_EVENTS.map((name) => (
            <label class="check" key={name}>
              <input
                type="checkbox"
                checked={events.value.includes(name)}
                onChange={(e) => toggle(name, e.currentTarget.checked)}
              />{" "}
              <code>{name}</code>
            </label>
          ))}
        </fieldset>
        <button type="submit">{t(S.save)}</button>
      </form>
      <p role="status">{status.value}</p>
      <DeliveryTable
        deliveries={deliveries.value}
        onChange={(m) => ((status.value = m), void reload())}
        onError={(err) => (errors.value = formErrors(err))}
        onRefresh={() => void reload()}
      />
    </section>
  );
}
