import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import type { SessionState } from "../../shared/session/session.ts";
import { routePath } from "../../shared/wire/route-path.ts";
import { onExportClick } from "../download.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { api, ApiFailure } from "../api.ts";
import { formatTime, t } from "../i18n.ts";
import { href, navigate, onLinkClick } from "../router.ts";
import { listAddress, notice } from "./list-state.ts";
import { TraceTimeline } from "./trace-timeline.tsx";
import { Contacts, StageValues, Transcript } from "./transcript.tsx";

const S = {
  back: { en: "All conversations", "zh-CN": "全部对话" },
  title: { en: "Conversation with {agent}", "zh-CN": "与 {agent} 的对话" },
  opened: { en: "Opened", "zh-CN": "开始时间" },
  tokens: { en: "Tokens", "zh-CN": "令牌" },
  language: { en: "Language", "zh-CN": "语言" },
  consent: { en: "Consent", "zh-CN": "同意" },
  consentNone: { en: "None asked", "zh-CN": "未要求" },
  consentChat: { en: "Conversation: version {v}, {at}", "zh-CN": "对话:版本 {v},{at}" },
  consentPhoto: { en: "Photos: version {v}, {at}", "zh-CN": "照片:版本 {v},{at}" },
  transcript: { en: "Transcript", "zh-CN": "对话记录" },
  trace: { en: "Trace", "zh-CN": "执行轨迹" },
  exportJson: { en: "Download JSON", "zh-CN": "下载 JSON" },
  exportCsv: { en: "Download CSV", "zh-CN": "下载 CSV" },
  delete: { en: "Delete conversation", "zh-CN": "删除对话" },
  confirm: {
    en: "Delete this conversation for good? Its messages, cards, photos and trace are erased.",
    "zh-CN": "确定永久删除此对话?其消息、卡片、照片和轨迹都将被清除。",
  },
  yes: { en: "Delete for good", "zh-CN": "永久删除" },
  no: { en: "Keep it", "zh-CN": "保留" },
  deleted: { en: "The conversation was deleted.", "zh-CN": "对话已删除。" },
  missing: { en: "This conversation does not exist (or was deleted).", "zh-CN": "此对话不存在(或已删除)。" },
  failed: { en: "Could not load the conversation: {m}", "zh-CN": "无法加载对话:{m}" },
};

/** One conversation: what the visitor saw, the stage values, the trace; export and erasure. */
export function ConversationDetail({ id }: { id: string }) {
  const state = useSignal<SessionState | null>(null);
  const error = useSignal("");
  const confirming = useSignal(false);
  const busy = useSignal(false);
  // The button that had focus leaves the page when the question shows (and comes back after it): focus follows.
  const askButton = useRef<HTMLButtonElement>(null);
  const yesButton = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (confirming.value) yesButton.current?.focus();
    else if (asked.current) askButton.current?.focus();
    asked.current ||= confirming.value;
  }, [confirming.value]);
  useEffect(() => {
    api.get(ROUTES.adminSession, { params: { id } }).then(
      (a) => (state.value = a.state),
      (err) =>
        (error.value =
          err instanceof ApiFailure && err.status === 404
            ? t(S.missing)
            : t(S.failed).replace("{m}", err instanceof Error ? err.message : String(err))),
    );
  }, [id]);

  async function erase() {
    busy.value = true;
    try {
      await api.delete(ROUTES.adminSession, { params: { id } });
      notice.value = t(S.deleted);
      navigate(listAddress());
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err);
      busy.value = false;
    }
  }

  const s = state.value;
  const exportHref = (format: string) => `${routePath(ROUTES.adminSessionExport, { id })}?format=${format}`;
  return (
    <article aria-labelledby="conversation-title">
      <p>
        <a href={href(listAddress())} onClick={(e) => onLinkClick(e, listAddress())}>
          ← {t(S.back)}
        </a>
      </p>
      {error.value && <p role="alert">{error.value}</p>}
      {s && (
        <>
          <h1 id="conversation-title">{t(S.title).replace("{agent}", s.agentId)}</h1>
          <dl class="facts">
            <div>
              <dt>{t(S.opened)}</dt>
              <dd>{s.openedAt ? formatTime(s.openedAt) : ""}</dd>
            </div>
            <div>
              <dt>{t(S.tokens)}</dt>
              <dd>{(s.usage?.totalTokens ?? 0).toLocaleString()}</dd>
            </div>
            <div>
              <dt>{t(S.language)}</dt>
              <dd>{s.locale ?? ""}</dd>
            </div>
            <div>
              <dt>{t(S.consent)}</dt>
              <dd data-field="consent">{consentText(s)}</dd>
            </div>
          </dl>
          <p class="actions">
            <a
              class="button"
              href={exportHref("json")}
              download
              onClick={(e) => onExportClick(e, exportHref("json"), `conversation-${id}.json`, (m) => (error.value = m))}
            >
              {t(S.exportJson)}
            </a>
            <a
              class="button"
              href={exportHref("csv")}
              download
              onClick={(e) => onExportClick(e, exportHref("csv"), `conversation-${id}.csv`, (m) => (error.value = m))}
            >
              {t(S.exportCsv)}
            </a>
            {!confirming.value && (
              <button ref={askButton} type="button" class="danger" onClick={() => (confirming.value = true)}>
                {t(S.delete)}
              </button>
            )}
          </p>
          {confirming.value && (
            <div role="group" aria-labelledby="confirm-delete" class="confirm">
              <p id="confirm-delete">{t(S.confirm)}</p>
              <button ref={yesButton} type="button" class="danger" disabled={busy.value} onClick={erase}>
                {t(S.yes)}
              </button>{" "}
              <button type="button" class="secondary" onClick={() => (confirming.value = false)}>
                {t(S.no)}
              </button>
            </div>
          )}
          <section aria-labelledby="transcript">
            <h2 id="transcript">{t(S.transcript)}</h2>
            <Transcript state={s} />
            <Contacts state={s} />
          </section>
          <StageValues state={s} />
          <section aria-labelledby="trace-title">
            <h2 id="trace-title">{t(S.trace)}</h2>
            <TraceTimeline trace={s.trace} />
          </section>
        </>
      )}
    </article>
  );
}

/** Which version of each consent notice the visitor agreed to, and when (the worker recorded it). */
function consentText(s: SessionState): string {
  const { chat, photo } = s.consent ?? {};
  const line = (text: (typeof S)["consentChat"], a: { version: string; at: number }) =>
    t(text).replace("{v}", a.version).replace("{at}", formatTime(a.at));
  const lines = [chat && line(S.consentChat, chat), photo && line(S.consentPhoto, photo)].filter(Boolean);
  return lines.length ? lines.join("; ") : t(S.consentNone);
}
