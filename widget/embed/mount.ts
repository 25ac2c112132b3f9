import { signal } from "@preact/signals";
import { h, render } from "preact";
import { loadStrings, resolveLocale, type Strings } from "../i18n/index.ts";
import { createChatStore, type ChatStore } from "../state/chat-store.ts";
import { defaultStorage } from "../state/browser-storage.ts";
import { App } from "../ui/app.tsx";
import { LazyMarkdown } from "../ui/lazy-markdown.tsx";
import { chunkCssRoot } from "../ui/chunk-css.ts";
import WIDGET_CSS from "../ui/styles.css?inline";
import { adoptCss, dropCss } from "./adopt-css.ts";
import { createEmitter, type MountOptions, type WidgetHandle, type WidgetTheme } from "../state/events.ts";

function shadowOf(container: HTMLElement | ShadowRoot): ShadowRoot {
  if (container instanceof ShadowRoot) return container;
  return container.shadowRoot ?? container.attachShadow({ mode: "open" });
}

/**
 * Mounts the widget into a shadow root (the given one, or one attached to the given element),
 * so host CSS cannot restyle it and its CSS cannot leak out.
 */
export function mount(container: HTMLElement | ShadowRoot, options: MountOptions): WidgetHandle {
  const root = shadowOf(container);
  const emitter = createEmitter();
  const api = (options.api ?? location.origin).replace(/\/+$/, "");
  const theme = signal<WidgetTheme>(options.theme ?? "auto");
  const frame = options.layout === "frame";
  let identity = options.identity;
  let generation = 0;
  const locale = resolveLocale(options.locale);
  let strings!: Strings;
  const createStore = (): ChatStore =>
    createChatStore({
      api,
      siteKey: options.siteKey,
      agentId: options.agentId,
      identity,
      locale,
      strings,
      storage: options.storage === undefined ? defaultStorage() : options.storage,
      fetch: options.fetch,
      emitter,
      debug: options.debug,
      draft: options.draft,
    });
  let store: ChatStore | null = null;
  /** Calls made before the visitor's strings arrived, run in order then. */
  const waiting: Array<(s: ChatStore) => void> = [];
  const withStore = (f: (s: ChatStore) => void) => {
    if (store) return f(store);
    waiting.push(f);
    // Asked before the strings came (the panel opens with them): the markdown renderer loads meanwhile,
    // and strings that did not come (offline as the page loaded) are asked for again.
    void LazyMarkdown.preload().catch(() => {});
    if (!loading) load();
  };
  let destroyed = false;

  const styles = adoptCss(root, WIDGET_CSS, options.nonce, `${api}/parley.css`);
  const dropChunkCss = chunkCssRoot(root, options.nonce);
  const host = document.createElement("div");
  host.setAttribute("data-parley", "widget");
  root.append(host);
  // A new key remounts the whole tree: nothing typed or shown for one visitor survives a switch.
  const draw = (s: ChatStore) =>
    render(h(App, { key: generation, store: s, launcher: !frame && (options.launcher ?? true), theme, frame }), host);

  // Keyboard users land back on the launcher (the widget's own, or the loader's `.l` in the same
  // shadow root) when the panel closes with focus inside it, e.g. by Escape; a host's close() with
  // focus elsewhere on the page does not steal it.
  emitter.on("close", () => {
    if (root.activeElement) root.querySelector<HTMLElement>(".launcher,.l")?.focus();
  });

  const start = (loaded: Strings) => {
    if (destroyed) return;
    strings = loaded;
    const s = (store = createStore());
    draw(s);
    if (options.open || frame) s.open();
    // Emitted after mount returns, so handlers registered right after mount() still hear it.
    queueMicrotask(() => emitter.emit("ready", undefined));
    for (const f of waiting.splice(0)) f(s);
  };
  // Each language's strings are a chunk of their own (a visitor loads one): the panel draws once they
  // come. A panel that opens at once loads the markdown renderer meanwhile, in parallel.
  let loading: Promise<void> | null = null;
  const load = () =>
    (loading = loadStrings(locale).then(start, () => {
      loading = null;
    }));
  load();
  if (options.open || frame) void LazyMarkdown.preload().catch(() => {});

  return {
    open: () => withStore((s) => s.open()),
    close: () => withStore((s) => s.close()),
    send: (text: string) =>
      withStore((s) => {
        s.open();
        void s.send(text);
      }),
    on: emitter.on,
    setIdentity(next) {
      if (next === identity) return;
      identity = next;
      // Before the store exists, the new identity is simply the one it starts with.
      if (!store) return;
      const wasOpen = store.isOpen.peek();
      store.dispose();
      generation++;
      const fresh = (store = createStore());
      draw(fresh);
      if (wasOpen) fresh.open();
    },
    setTheme: (t) => void (theme.value = t),
    clear: () => withStore((s) => s.clear()),
    destroy() {
      destroyed = true;
      store?.dispose();
      render(null, host);
      host.remove();
      dropCss(root, styles);
      dropChunkCss();
    },
  };
}
