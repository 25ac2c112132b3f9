import { useSignal } from "@preact/signals";
import { useEffect, useMemo, useRef } from "preact/hooks";
import * as ROUTES from "../../shared/wire/routes.ts";
import { api, session } from "../api.ts";
import { formatTime, t } from "../i18n.ts";
import { href, onLinkClick } from "../router.ts";
import { Contacts, Transcript } from "../conversations/transcript.tsx";
import { openChannel, replyText } from "./channel.ts";

const S = {
  back: { en: "Back to Live", "zh-CN": "返回实时" },
  title: { en: "Live conversation", "zh-CN": "实时对话" },
  agent: { en: "The agent answers this conversation.", "zh-CN": "此对话由助手回答。" },
  person: { en: "{name} handles this conversation (since {time}).", "zh-CN": "{name} 正在处理此对话(自 {time})。" },
  waiting: { en: "The visitor asked for a person {time}.", "zh-CN": "访客于 {time} 请求人工。" },
  reason: { en: "Reason: {r}", "zh-CN": "原因:{r}" },
  join: { en: "Join as {name}", "zh-CN": "以 {name} 身份加入" },
  message: {
    en: "Message to the visitor (Enter sends, Shift+Enter for a new line)",
    "zh-CN": "发给访客的消息(回车发送,Shift+回车换行)",
  },
  send: { en: "Send", "zh-CN": "发送" },
  handBack: { en: "Hand back to the agent", "zh-CN": "交还给助手" },
  typing: { en: "The agent is replying…", "zh-CN": "助手正在回复…" },
  retrying: { en: "Connection lost: reconnecting…", "zh-CN": "连接中断:正在重连…" },
  failed: { en: "Not done: {m}", "zh-CN": "未完成:{m}" },
  erased: {
    en: "The visitor deleted this conversation: nothing of it is kept, and it cannot be joined.",
    "zh-CN": "访客已删除此对话:其内容不再保留,也无法加入。",
  },
  erasedByOwner: {
    en: "This conversation was deleted: nothing of it is kept.",
    "zh-CN": "此对话已被删除:其内容不再保留。",
  },
};

/**
 * /console/live/<id>: one conversation, live (the session's channel, folded by the shared
 * reducer): the agent's replies as they stream, Join (the agent stops), a composer, Hand back.
 * Every control is a native button or field: usable by keyboard alone.
 */
export function LiveConversationPage({ id }: { id: string }) {
  const channel = useMemo(() => openChannel(id), [id]);
  useEffect(() => () => channel.close(), [channel]);
  const draft = useSignal("");
  const error = useSignal("");
  const busy = useSignal(false);
  const composer = useRef<HTMLTextAreaElement>(null);
  const state = channel.state.value;
  const h = state.handler;

  type StaffRoute = typeof ROUTES.adminLiveJoin | typeof ROUTES.adminLiveMessages | typeof ROUTES.adminLiveHandback;
  async function step(path: StaffRoute, json: unknown) {
    busy.value = true;
    try {
      await api.post(path, { params: { id }, json });
      error.value = "";
      return true;
    } catch (err) {
      error.value = t(S.failed).replace("{m}", err instanceof Error ? err.message : String(err));
      return false;
    } finally {
      busy.value = false;
    }
  }
  async function join() {
    if (await step(ROUTES.adminLiveJoin, {})) composer.current?.focus();
  }
  async function send(e?: Event) {
    e?.preventDefault();
    const content = draft.value.trim();
    if (!content || busy.value) return;
    if (await step(ROUTES.adminLiveMessages, { content })) draft.value = "";
    composer.current?.focus();
  }
  // The name visitors see is the signed-in account's: the worker takes it from the session.
  const name = session.value?.who.name ?? "";
  const erased = channel.erased.value;
  if (erased)
    return (
      <section aria-labelledby="live-conv-title">
        <p>
          <a href={href("live")} onClick={(e) => onLinkClick(e, "live")}>
            {t(S.back)}
          </a>
        </p>
        <h1 id="live-conv-title">{t(S.title)}</h1>
        <p role="alert" data-erased={erased}>
          {t(erased === "visitor" ? S.erased : S.erasedByOwner)}
        </p>
      </section>
    );
  return (
    <section aria-labelledby="live-conv-title">
      <p>
        <a href={href("live")} onClick={(e) => onLinkClick(e, "live")}>
          {t(S.back)}
        </a>
      </p>
      <h1 id="live-conv-title">{t(S.title)}</h1>
      <p role="status" class="handler">
        {h.kind === "person"
          ? t(S.person).replace("{name}", h.name).replace("{time}", formatTime(h.since))
          : t(S.agent)}
        {channel.status.value === "retrying" && <span class="warn"> {t(S.retrying)}</span>}
      </p>
      {state.personRequest?.status === "queued" && (
        <p class="warn">
          {t(S.waiting).replace("{time}", formatTime(state.personRequest.at))}
          {state.personRequest.reason && ` ${t(S.reason).replace("{r}", state.personRequest.reason)}`}
        </p>
      )}
      <div role="log" aria-live="polite" aria-label={t(S.title)}>
        <Transcript state={state} />
        {channel.streaming.value.map((r) => (
          <div key={r.id} class="msg assistant streaming" aria-busy="true">
            <p class="who">
              <strong>{t(S.typing)}</strong>
            </p>
            <p>{replyText(r.text)}</p>
          </div>
        ))}
      </div>
      <Contacts state={state} />
      {error.value && <p role="alert">{error.value}</p>}
      {h.kind === "agent" && (
        <p class="actions">
          <button type="button" disabled={busy.value} onClick={join}>
            {t(S.join).replace("{name}", name)}
          </button>
        </p>
      )}
      {h.kind === "person" && (
        <form class="live-composer" onSubmit={send}>
          <div class="field">
            <label for="live-message">{t(S.message)}</label>
            <textarea
              id="live-message"
              ref={composer}
              rows={3}
              value={draft.value}
              onInput={(e) => (draft.value = e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey && !e.isComposing) void send(e);
              }}
            />
          </div>
          <p class="actions">
            <button type="submit" disabled={busy.value || !draft.value.trim()}>
              {t(S.send)}
            </button>
            <button
              type="button"
              class="secondary"
              disabled={busy.value}
              onClick={() => step(ROUTES.adminLiveHandback, {})}
            >
              {t(S.handBack)}
            </button>
          </p>
        </form>
      )}
    </section>
  );
}
