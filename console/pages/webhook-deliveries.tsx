import type { WebhookDeliveryView } from "../../shared/admin/webhook-api.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { api } from "../api.ts";
import { formatTime, t } from "../i18n.ts";
import { TableHead } from "../form/table-head.tsx";

const S = {
  title: { en: "Deliveries", "zh-CN": "投递记录" },
  none: { en: "Nothing sent yet.", "zh-CN": "尚未发送任何事件。" },
  event: { en: "Event", "zh-CN": "事件" },
  status: { en: "Status", "zh-CN": "状态" },
  attempts: { en: "Attempts", "zh-CN": "尝试次数" },
  response: { en: "Last response", "zh-CN": "最近响应" },
  created: { en: "Queued", "zh-CN": "入队时间" },
  actions: { en: "Actions", "zh-CN": "操作" },
  resend: { en: "Resend", "zh-CN": "重新发送" },
  named: { en: "Resend {e} of {d}", "zh-CN": "重新发送 {d} 的 {e}" },
  next: { en: "next try {d}", "zh-CN": "下次尝试 {d}" },
  refresh: { en: "Refresh", "zh-CN": "刷新" },
};
const STATUS = {
  pending: { en: "Pending", "zh-CN": "等待中" },
  delivered: { en: "Delivered", "zh-CN": "已送达" },
  failed: { en: "Failed", "zh-CN": "失败" },
};

/** The site's deliveries, newest first: status, attempts, the receiver's last answer, and a resend. */
export function DeliveryTable(props: {
  deliveries: WebhookDeliveryView[];
  onChange: (message: string) => void;
  onError: (err: unknown) => void;
  onRefresh: () => void;
}) {
  async function resend(d: WebhookDeliveryView) {
    try {
      await api.post(ROUTES.adminWebhookResend, { params: { delivery: String(d.id) } });
      props.onChange(t({ en: "Queued again.", "zh-CN": "已重新入队。" }));
    } catch (err) {
      props.onError(err);
    }
  }
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">{t(S.title)}</h2>
      <button type="button" class="secondary" onClick={props.onRefresh}>
        {t(S.refresh)}
      </button>
      {props.deliveries.length === 0 ? (
        <p>{t(S.none)}</p>
      ) : (
        <table>
          <TableHead cols={[S.event, S.status, S.attempts, S.response, S.created, S.actions]} />
          <tbody>
            {props.deliveries.map((d) => (
              <tr key={d.id}>
                <td>
                  <code>{d.type}</code>
                </td>
                <td>
                  {t(STATUS[d.status])}
                  {d.nextAttemptAt && (
                    <span class="muted"> ({t(S.next).replace("{d}", formatTime(d.nextAttemptAt))})</span>
                  )}
                </td>
                <td>{d.attempts}</td>
                <td>
                  {d.lastStatus ?? ""} {d.lastError && d.lastStatus === null ? d.lastError : ""}
                  {d.lastResponse && <pre class="response">{d.lastResponse.slice(0, 300)}</pre>}
                </td>
                <td>{formatTime(d.createdAt)}</td>
                <td class="actions">
                  <button
                    type="button"
                    class="secondary"
                    onClick={() => resend(d)}
                    aria-label={t(S.named).replace("{e}", d.type).replace("{d}", formatTime(d.createdAt))}
                  >
                    {t(S.resend)}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
