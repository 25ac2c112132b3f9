import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import * as ROUTES from "../../shared/routes.ts";
import { api, ApiFailure } from "../api.ts";
import { formatTime, t } from "../i18n.ts";
import type { PageProps } from "../pages.ts";

interface Listed {
  sessionId: string;
  agentId: string;
  openedAt: number;
}
interface ListAnswer {
  sessions: Listed[];
  next?: number;
  tokensToday: { spent: number; budget: number };
}

const S = {
  title: { en: "Conversations", "zh-CN": "对话" },
  opened: { en: "Opened", "zh-CN": "开始时间" },
  agent: { en: "Agent", "zh-CN": "助手" },
  id: { en: "Conversation", "zh-CN": "对话编号" },
  none: { en: "No conversations yet.", "zh-CN": "还没有对话。" },
  older: { en: "Older conversations", "zh-CN": "更早的对话" },
  tokens: { en: "Tokens today: {spent} of {budget}", "zh-CN": "今日用量:{spent} / {budget} 令牌" },
  failed: { en: "Could not load conversations: {m}", "zh-CN": "无法加载对话:{m}" },
};

/** The site's conversations, newest first, a page at a time. */
export default function Conversations(_: PageProps) {
  const rows = useSignal<Listed[]>([]);
  const next = useSignal<number | undefined>(undefined);
  const tokens = useSignal<ListAnswer["tokensToday"] | null>(null);
  const error = useSignal("");
  const loading = useSignal(true);

  async function load(before?: number) {
    loading.value = true;
    try {
      const a = await api<ListAnswer>(ROUTES.adminSessions, { query: { limit: 50, before } });
      rows.value = before ? [...rows.value, ...a.sessions] : a.sessions;
      next.value = a.next;
      tokens.value = a.tokensToday;
      error.value = "";
    } catch (err) {
      error.value = t(S.failed).replace("{m}", err instanceof ApiFailure ? err.message : String(err));
    } finally {
      loading.value = false;
    }
  }
  useEffect(() => void load(), []);

  return (
    <section aria-labelledby="conversations-title">
      <h1 id="conversations-title">{t(S.title)}</h1>
      {tokens.value && (
        <p class="muted">
          {t(S.tokens)
            .replace("{spent}", tokens.value.spent.toLocaleString())
            .replace("{budget}", tokens.value.budget.toLocaleString())}
        </p>
      )}
      {error.value && <p role="alert">{error.value}</p>}
      {!loading.value && !error.value && rows.value.length === 0 && <p>{t(S.none)}</p>}
      {rows.value.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">{t(S.opened)}</th>
              <th scope="col">{t(S.agent)}</th>
              <th scope="col">{t(S.id)}</th>
            </tr>
          </thead>
          <tbody>
            {rows.value.map((r) => (
              <tr key={r.sessionId}>
                <td>{formatTime(r.openedAt)}</td>
                <td>{r.agentId}</td>
                <td>
                  <code>{r.sessionId}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next.value !== undefined && (
        <button type="button" disabled={loading.value} onClick={() => load(next.value)}>
          {t(S.older)}
        </button>
      )}
    </section>
  );
}
