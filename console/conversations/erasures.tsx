import { useSignal } from "@preact/signals";
import type { ErasureRow } from "../../shared/wire/admin-answers.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { api } from "../api.ts";
import { formatTime, t } from "../i18n.ts";

const S = {
  title: { en: "Deleted by their visitors", "zh-CN": "访客已删除的对话" },
  note: {
    en: "A visitor may delete their own conversation from the chat. Nothing of it is kept but its id and when.",
    "zh-CN": "访客可以在聊天中删除自己的对话。除其编号和删除时间外,不保留任何内容。",
  },
  none: { en: "None so far.", "zh-CN": "暂无。" },
  id: { en: "Conversation", "zh-CN": "对话" },
  when: { en: "Deleted", "zh-CN": "删除时间" },
  failed: { en: "Could not load the list: {m}", "zh-CN": "无法加载列表:{m}" },
};

/** The conversations their visitors erased (id and time only), read when the owner opens the section. */
export function Erasures() {
  const rows = useSignal<ErasureRow[] | null>(null);
  const error = useSignal("");
  async function load() {
    if (rows.value) return;
    try {
      rows.value = (await api.get(ROUTES.adminErasures)).erasures;
    } catch (err) {
      error.value = t(S.failed).replace("{m}", err instanceof Error ? err.message : String(err));
    }
  }
  return (
    <details class="erasures" onToggle={(e) => (e.currentTarget as HTMLDetailsElement).open && void load()}>
      <summary>{t(S.title)}</summary>
      <p class="muted">{t(S.note)}</p>
      {error.value && <p role="alert">{error.value}</p>}
      {rows.value?.length === 0 && <p>{t(S.none)}</p>}
      {!!rows.value?.length && (
        <table>
          <thead>
            <tr>
              <th scope="col">{t(S.id)}</th>
              <th scope="col">{t(S.when)}</th>
            </tr>
          </thead>
          <tbody>
            {rows.value.map((r) => (
              <tr key={r.sessionId}>
                <td>
                  <code>{r.sessionId}</code>
                </td>
                <td>{formatTime(r.at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}
