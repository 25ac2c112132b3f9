import { createEmitter, type WidgetEvent, type WidgetHandle, type WidgetTheme } from "../state/events.ts";
import { isEvent, type BridgeCommand, type BridgeCommandMessage } from "./bridge-protocol.ts";

export interface IframeBridgeOptions {
  /** The worker's origin, where the /embed/<agent> page comes from, e.g. "https://parley.example". */
  origin: string;
}

export type IframeBridge = Pick<
  WidgetHandle,
  "open" | "close" | "send" | "on" | "setIdentity" | "setTheme" | "destroy"
>;

/**
 * Drives an iframe embed (`<iframe src="https://parley.example/embed/<agent>?site=<key>">`) from the
 * host page. Messages go only to `origin`; only messages from that iframe and that origin are heard.
 * Commands given before the frame is ready are queued.
 */
export function createIframeBridge(iframe: HTMLIFrameElement, { origin }: IframeBridgeOptions): IframeBridge {
  const target = new URL(origin).origin;
  const emitter = createEmitter();
  let ready = false;
  const queue: BridgeCommandMessage[] = [];
  const post = (cmd: BridgeCommand, value?: string) => {
    const msg: BridgeCommandMessage = { parley: 1, cmd, ...(value === undefined ? {} : { value }) };
    if (ready || cmd === "hello") iframe.contentWindow?.postMessage(msg, target);
    else queue.push(msg);
  };
  const onMessage = (e: MessageEvent) => {
    if (e.source !== iframe.contentWindow || e.origin !== target || !isEvent(e.data)) return;
    if (e.data.event === "ready") {
      if (ready) return;
      ready = true;
      for (const msg of queue.splice(0)) iframe.contentWindow?.postMessage(msg, target);
    }
    emitter.emit(e.data.event as WidgetEvent, e.data.payload as never);
  };
  const hello = () => post("hello");
  window.addEventListener("message", onMessage);
  iframe.addEventListener("load", hello);
  hello();
  return {
    open: () => post("open"),
    close: () => post("close"),
    send: (text) => post("send", text),
    setIdentity: (id) => post("identity", id ?? ""),
    setTheme: (t: WidgetTheme) => post("theme", t),
    on: emitter.on,
    destroy() {
      window.removeEventListener("message", onMessage);
      iframe.removeEventListener("load", hello);
    },
  };
}
