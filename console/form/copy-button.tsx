import { useSignal } from "@preact/signals";
import { t } from "../i18n.ts";

const S = {
  copy: { en: "Copy", "zh-CN": "复制" },
  copied: { en: "Copied", "zh-CN": "已复制" },
  failed: { en: "Copy failed: select the text and copy it", "zh-CN": "复制失败:请选中文字后复制" },
};

/** Copies `text` to the clipboard; the outcome is announced beside the button (a live region). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const status = useSignal("");
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      status.value = t(S.copied);
    } catch {
      status.value = t(S.failed);
    }
  }
  return (
    <span class="copy">
      <button type="button" aria-label={`${t(S.copy)}: ${label}`} onClick={copy}>
        {t(S.copy)}
      </button>
      <span role="status" class="muted">
        {status.value}
      </span>
    </span>
  );
}
