import { h, render } from "preact";
import { resolveLocale } from "../i18n/index.ts";
import { createChatStore } from "../state/chat-store.ts";
import { defaultStorage } from "../state/session-storage.ts";
import { App } from "../ui/app.tsx";
import { WIDGET_CSS } from "../ui/styles.ts";
import { createEmitter, type MountOptions, type WidgetHandle } from "../state/events.ts";

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
  const store = createChatStore({
    api,
    siteKey: options.siteKey,
    agentId: options.agentId,
    locale: resolveLocale(options.locale),
    storage: options.storage === undefined ? defaultStorage() : options.storage,
    fetch: options.fetch,
    emitter,
  });

  const style = document.createElement("style");
  style.textContent = WIDGET_CSS;
  const host = document.createElement("div");
  host.setAttribute("data-parley", "widget");
  root.append(style, host);
  render(h(App, { store, launcher: options.launcher ?? true }), host);

  if (options.open) store.open();
  // Emitted after mount returns, so handlers registered right after mount() still hear it.
  queueMicrotask(() => emitter.emit("ready", undefined));

  return {
    open: store.open,
    close: store.close,
    send: (text: string) => {
      store.open();
      void store.send(text);
    },
    on: emitter.on,
    destroy() {
      store.dispose();
      render(null, host);
      host.remove();
      style.remove();
    },
  };
}
