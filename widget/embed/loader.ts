/**
 * The script-tag loader (dist/public/parley.js): what every page visit pays, so plain DOM and
 * no Preact. It draws the launcher in a shadow root and imports the full widget only when the
 * visitor shows interest (hover, focus, click) or the browser is idle.
 *
 *   <script src="https://parley.example/parley.js" data-site-key="..." data-agent="..." async></script>
 */
import { createEmitter, WIDGET_EVENTS, type MountOptions, type WidgetHandle } from "../state/events.ts";

type ParleyApi = Pick<WidgetHandle, "open" | "close" | "send" | "on">;

declare global {
  interface Window {
    Parley?: ParleyApi;
  }
}

const ICON_CHAT =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z"/></svg>';
const ICON_CLOSE =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18"/></svg>';

// :host rules need !important: the host page's rules on the host element beat :host otherwise.
const CSS =
  ":host{all:initial!important;display:contents!important}" +
  ".l{all:initial;position:fixed;right:var(--parley-right,20px);left:var(--parley-left,auto);bottom:var(--parley-bottom,20px);z-index:2147483000;width:60px;height:60px;border-radius:50%;" +
  "background:var(--parley-accent,#2f6f73);color:var(--parley-accent-contrast,#fff);display:grid;place-items:center;cursor:pointer;" +
  "box-shadow:0 6px 24px rgba(0,0,0,.22);transition:transform .15s}.l:hover{transform:scale(1.06)}" +
  ".l:focus-visible{outline:3px solid var(--parley-accent,#2f6f73);outline-offset:3px}.l svg{width:28px;height:28px;display:block}" +
  ".l b{position:absolute;top:-4px;right:-4px;min-width:22px;height:22px;padding:0 6px;box-sizing:border-box;border-radius:11px;background:#c62828;color:#fff;font:700 12px/22px system-ui,sans-serif;text-align:center;box-shadow:0 0 0 2px #fff}" +
  "@media (prefers-reduced-motion:reduce){.l{transition:none}}";

(() => {
  if (window.Parley) return; // loaded twice: keep the first
  const script = (document.currentScript ?? document.querySelector('script[src*="parley.js"]')) as HTMLScriptElement | null;
  const data = script?.dataset ?? {};
  const src = script?.src || location.href;
  const zh = (data.locale || navigator.language || "").toLowerCase().startsWith("zh");
  const label = (open: boolean) =>
    open ? (zh ? "关闭聊天" : "Close chat") : (zh ? "打开聊天" : "Open chat") + (unread ? ` (${unread} ${zh ? "条新消息" : "new"})` : "");
  const options: MountOptions = {
    siteKey: data.siteKey ?? "",
    agentId: data.agent ?? "",
    api: data.api || new URL(src).origin,
    locale: data.locale,
    identity: data.identity,
    theme: data.theme as MountOptions["theme"],
    launcher: false,
    debug: data.debug === "true",
  };

  const hostEl = document.createElement("parley-chat");
  const shadow = hostEl.attachShadow({ mode: "open" });
  const style = document.createElement("style");
  style.textContent = CSS;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "l";
  shadow.append(style, button);

  const emitter = createEmitter();
  let isOpen = false;
  /** The widget counts replies that arrive while the panel is closed; the loader only draws the badge. */
  let unread = 0;
  let ready = false;
  const draw = () => {
    button.innerHTML = isOpen ? ICON_CLOSE : ICON_CHAT + (unread ? `<b aria-hidden="true">${unread}</b>` : "");
    button.setAttribute("aria-label", label(isOpen));
    button.title = label(isOpen);
    button.setAttribute("aria-expanded", String(isOpen));
  };
  draw();

  let handle: WidgetHandle | null = null;
  let loading: Promise<void> | null = null;
  const queue: Array<(h: WidgetHandle) => void> = [];

  const load = (): Promise<void> =>
    (loading ??= import(/* @vite-ignore */ new URL("parley-widget.js", src).href).then(
      (mod: { mount: (c: ShadowRoot, o: MountOptions) => WidgetHandle }) => {
        const h = mod.mount(shadow, options);
        for (const ev of WIDGET_EVENTS) {
          h.on(ev, (payload) => {
            if (ev === "open" || ev === "close" || ev === "unread") {
              if (ev !== "unread") isOpen = ev === "open";
              else unread = payload as number;
              draw();
            }
            if (ev === "ready") ready = true;
            emitter.emit(ev, payload as never);
          });
        }
        handle = h;
        queue.splice(0).forEach((f) => f(h));
      },
      (e: unknown) => {
        loading = null; // a later click tries again
        emitter.emit("error", { code: "load_failed", message: String(e) });
      },
    ));

  /** Runs now if the widget is there, else after it loads (calls made early are replayed in order). */
  const call = (f: (h: WidgetHandle) => void) => {
    if (handle) f(handle);
    else {
      queue.push(f);
      void load();
    }
  };

  button.addEventListener("click", () => call((h) => (isOpen ? h.close() : h.open())));
  for (const ev of ["pointerenter", "focus", "touchstart"]) button.addEventListener(ev, () => void load(), { once: true, passive: true });
  const idle = (window as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number }).requestIdleCallback;
  const prefetch = () => void load();
  if (idle) idle(prefetch, { timeout: 4000 });
  else setTimeout(prefetch, 2000);

  window.Parley = {
    open: () => call((h) => h.open()),
    close: () => call((h) => h.close()),
    send: (text: string) => call((h) => h.send(text)),
    // "ready" is sticky: a handler added after the widget loaded still hears it.
    on: (event, handler) => {
      if (event === "ready" && ready) queueMicrotask(() => (handler as () => void)());
      return emitter.on(event, handler);
    },
  };

  const attach = () => document.body.appendChild(hostEl);
  if (document.body) attach();
  else document.addEventListener("DOMContentLoaded", attach);
  if (data.open === "true") window.Parley.open();
})();
