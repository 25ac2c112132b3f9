import { useEffect, useState } from "preact/hooks";
import type { FunctionComponent } from "preact";
import type { ConsolePage, PageProps } from "./pages.ts";
import { t } from "./i18n.ts";

const loaded = new Map<string, FunctionComponent<PageProps>>();

/** Loads a page's chunk on first visit (then keeps it), and says so while it loads or if it fails. */
export function PageFrame({ page, rest }: { page: ConsolePage; rest: string[] }) {
  const [, setTick] = useState(0);
  const [failed, setFailed] = useState(false);
  const Page = loaded.get(page.path);
  useEffect(() => {
    if (Page) return;
    setFailed(false);
    page.load().then(
      (m) => {
        loaded.set(page.path, m.default);
        setTick((n) => n + 1);
      },
      () => setFailed(true),
    );
  }, [page, Page]);
  if (failed)
    return (
      <p role="alert">
        {t({ en: "This page could not be loaded. Reload to try again.", "zh-CN": "页面加载失败,请刷新重试。" })}
      </p>
    );
  if (!Page) return <p aria-busy="true">{t({ en: "Loading…", "zh-CN": "加载中…" })}</p>;
  return <Page rest={rest} />;
}
