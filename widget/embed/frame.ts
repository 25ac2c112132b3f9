/**
 * The iframe embed page's script (dist/public/parley-frame.js, loaded by /embed/<agent>): runs the
 * widget full-frame and bridges it to the parent page by postMessage.
 *
 * Origins are checked both ways against the site's allowed origins, which the worker renders into
 * the page: a command is obeyed only when it comes from the parent window and an allowed origin,
 * and events are posted only to that verified origin, never "*". The parent's origin is known at
 * once where the browser says it (location.ancestorOrigins), else from the host's first "hello".
 * The worker also sends `frame-ancestors` with the same origins, so other sites cannot frame it.
 */
import { originAllowed } from "../../shared/config/origins.ts";
import { WIDGET_EVENTS, type MountOptions, type WidgetHandle, type WidgetTheme } from "../state/events.ts";
import { isCommand, type BridgeEventMessage } from "./bridge-protocol.ts";

interface EmbedConfig {
  siteKey: string;
  agentId: string;
  allowedOrigins: string[];
  /** The console's "try draft" preview: the draft agent, and no stored session to mix with the published one. */
  draft?: boolean;
}

const config = JSON.parse(document.getElementById("parley-embed")!.textContent!) as EmbedConfig;
const query = new URLSearchParams(location.search);
const allowed = (origin: string) => originAllowed(origin, config.allowedOrigins);

let parentOrigin: string | null = null;
const claimed = location.ancestorOrigins?.[0];
if (window.parent !== window && claimed && allowed(claimed)) parentOrigin = claimed;

const post = (msg: BridgeEventMessage) => {
  if (parentOrigin) window.parent.postMessage(msg, parentOrigin);
};

const widget = import(/* @vite-ignore */ import.meta.url.replace(/[^/]*$/, "parley-widget.js")).then(
  (mod: { mount: (c: HTMLElement, o: MountOptions) => WidgetHandle }) => {
    const host = document.createElement("div");
    document.body.append(host);
    const handle = mod.mount(host, {
      siteKey: config.siteKey,
      agentId: config.agentId,
      api: location.origin,
      locale: query.get("locale") ?? undefined,
      theme: (query.get("theme") as WidgetTheme | null) ?? undefined,
      layout: "frame",
      debug: query.get("debug") === "true",
      ...(config.draft ? { draft: true, storage: null } : {}),
    });
    for (const event of WIDGET_EVENTS) handle.on(event, (payload) => post({ parley: 1, event, payload }));
    return handle;
  },
);

window.addEventListener("message", (e) => {
  if (e.source !== window.parent || window.parent === window || !allowed(e.origin) || !isCommand(e.data)) return;
  if (parentOrigin && e.origin !== parentOrigin) return;
  parentOrigin = e.origin;
  const { cmd, value } = e.data;
  void widget.then((h) => {
    if (cmd === "hello") post({ parley: 1, event: "ready", payload: undefined });
    else if (cmd === "open") h.open();
    else if (cmd === "close") h.close();
    else if (cmd === "send" && value) h.send(value);
    else if (cmd === "identity") h.setIdentity(value || undefined);
    else if (cmd === "theme") h.setTheme(value === "dark" || value === "light" ? value : "auto");
  });
});
