import { useEffect, useRef } from "preact/hooks";
import { session, signOut } from "./api.ts";
import { locale, setLocale, t } from "./i18n.ts";
import { PageFrame } from "./page-frame.tsx";
import { can } from "../shared/admin/roles.ts";
import { PAGES } from "./pages.ts";
import { ROLE_LABELS } from "./roles.ts";
import { href, navigate, onLinkClick, route } from "./router.ts";

const S = {
  skip: { en: "Skip to content", "zh-CN": "跳到正文" },
  nav: { en: "Console", "zh-CN": "控制台" },
  site: { en: "Site", "zh-CN": "站点" },
  language: { en: "Language", "zh-CN": "语言" },
  signOut: { en: "Sign out", "zh-CN": "退出登录" },
  missing: { en: "There is no such page.", "zh-CN": "没有这个页面。" },
  who: { en: "Signed in as", "zh-CN": "当前用户" },
};

/**
 * The signed-in console: header (site, who and their role, language, sign out), the navigation of
 * the pages the role may open, the current page.
 */
export function Layout() {
  const [first, ...rest] = route.value.split("/");
  const who = session.value?.who;
  const pages = PAGES.filter((p) => who && can(who.role, p.need));
  const page = pages.find((p) => p.path === first);
  const main = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!first) navigate(pages[0].path, true);
  }, [first]);
  // A new address (another page, or a conversation opened from the list and back) moves focus to the content,
  // as a page load would: the link that had it is gone, and focus must not fall to <body>.
  const previous = useRef(route.value);
  useEffect(() => {
    if (previous.current !== route.value && first) main.current?.focus();
    previous.current = route.value;
  }, [route.value]);
  return (
    <div class="layout">
      <a class="skip" href="#main">
        {t(S.skip)}
      </a>
      <header class="top">
        <span class="brand">Parley</span>
        <span class="site">
          {t(S.site)}: <code>{session.value?.site}</code>
        </span>
        {who && (
          <span class="who">
            {t(S.who)} <strong>{who.name}</strong> ({t(ROLE_LABELS[who.role])})
          </span>
        )}
        <label class="lang">
          {t(S.language)}{" "}
          <select value={locale.value} onChange={(e) => setLocale(e.currentTarget.value === "zh-CN" ? "zh-CN" : "en")}>
            <option value="en" lang="en">
              English
            </option>
            <option value="zh-CN" lang="zh-CN">
              简体中文
            </option>
          </select>
        </label>
        <button type="button" class="sign-out" onClick={() => signOut().catch(() => (session.value = null))}>
          {t(S.signOut)}
        </button>
      </header>
      <nav aria-label={t(S.nav)} class="side">
        <ul>
          {pages.map((p) => (
            <li key={p.path}>
              <a
                href={href(p.path)}
                aria-current={p.path === first ? "page" : undefined}
                onClick={(e) => onLinkClick(e, p.path)}
              >
                {t(p.label)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" ref={main} tabIndex={-1}>
        {page ? <PageFrame key={page.path} page={page} rest={rest} /> : first && <p role="alert">{t(S.missing)}</p>}
      </main>
    </div>
  );
}
