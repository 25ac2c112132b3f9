import { useSignal } from "@preact/signals";
import { session } from "../api.ts";
import { locale, t } from "../i18n.ts";

const S = {
  show: { en: "Show the live preview", "zh-CN": "显示实时预览" },
  reload: { en: "Reload the preview", "zh-CN": "重新加载预览" },
  title: { en: "Chat preview: {a}", "zh-CN": "聊天预览:{a}" },
};

/**
 * The agent as a visitor gets it: the embed page (same origin), framed. Loaded when the owner asks,
 * never by itself: the chat frame takes focus when it opens, which would pull the keyboard out of
 * a form the owner is filling in.
 */
export function Preview({ agent }: { agent: string }) {
  const loads = useSignal(0);
  const site = session.value?.site ?? "";
  const src = `/embed/${encodeURIComponent(agent)}?site=${encodeURIComponent(site)}&locale=${locale.value}`;
  return (
    <div class="preview-box">
      <button type="button" class="secondary" onClick={() => loads.value++}>
        {loads.value ? t(S.reload) : t(S.show)}
      </button>
      {loads.value > 0 && (
        <iframe class="preview" key={`${src}#${loads.value}`} src={src} title={t(S.title).replace("{a}", agent)} />
      )}
    </div>
  );
}
