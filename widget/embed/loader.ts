/**
 * The script-tag loader (dist/public/parley.js): what every page visit pays, so plain DOM and
 * no Preact. It draws the launcher in a shadow root and imports the full widget only when the
 * visitor shows interest (hover, focus, click) or the browser is idle.
 *
 *   <script src="https://parley.example/parley.js" data-site-key="..." data-agent="..." async></script>
 */
import CSS from "./loader.css?inline";
import { adoptCss } from "./adopt-css.ts";
import { createEmitter, WIDGET_EVENTS, type MountOptions, type WidgetHandle } from "../state/events.ts";

type ParleyApi = Pick<WidgetHandle, "open" | "close" | "send" | "on">;

declare global {
  interface Window {
    Parley?: ParleyApi;
  }
}

// The icons' paths: the SVG is built as elements, never from markup (Trusted Types refuses innerHTML strings).
const CHAT_PATH = "M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z";
const CLOSE_PATH = "M6 6l12 12M18 6L6 18";
const SVG_NS = "http://www.w3.org/2000/svg";

(() => {
  if (window.Parley) return; // loaded twice: keep the first
  const script = (document.currentScript ??
    document.querySelector('script[src*="parley.js"]')) as HTMLScriptElement | null;
  const data = script?.dataset ?? {};
  const src = script?.src || location.href;
  const zh = (data.locale || navigator.language || "").toLowerCase().startsWith("zh");
  const label = (open: boolean) =>
    open
      ? zh
        ? "关闭聊天"
        : "Close chat"
      : (zh ? "打开聊天" : "Open chat") + (unread ? ` (${unread} ${zh ? "条新消息" : "new"})` : "");
  const options: MountOptions = {
    siteKey: data.siteKey ?? "",
    agentId: data.agent ?? "",
    api: data.api || new URL(src).origin,
    locale: data.locale,
    identity: data.identity,
    theme: data.theme as MountOptions["theme"],
    launcher: false,
    debug: data.debug === "true",
    // A nonce on the script tag is handed on to anything that still needs one (see adopt-css.ts).
    nonce: script?.nonce || undefined,
  };

  const hostEl = document.createElement("parley-chat");
  const shadow = hostEl.attachShadow({ mode: "open" });
  adoptCss(shadow, CSS, options.nonce, new URL("parley.css", src).href);
  const button = document.createElement("button");
  button.type = "button";
  button.className = "l";
  const icon = document.createElementNS(SVG_NS, "svg");
  const path = document.createElementNS(SVG_NS, "path");
  const badge = document.createElement("b");
  icon.setAttribute("viewBox", "0 0 24 24");
  icon.setAttribute("aria-hidden", "true");
  badge.setAttribute("aria-hidden", "true");
  icon.append(path);
  button.append(icon);
  shadow.append(button);

  const emitter = createEmitter();
  let isOpen = false;
  /** The widget counts replies that arrive while the panel is closed; the loader only draws the badge. */
  let unread = 0;
  let ready = false;
  const draw = () => {
    path.setAttribute("d", isOpen ? CLOSE_PATH : CHAT_PATH);
    badge.textContent = String(unread);
    if (unread && !isOpen) button.append(badge);
    else badge.remove();
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
  for (const ev of ["pointerenter", "focus", "touchstart"])
    button.addEventListener(ev, () => void load(), { once: true, passive: true });
  const idle = (window as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number })
    .requestIdleCallback;
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
