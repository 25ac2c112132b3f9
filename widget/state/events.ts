/** Public event names of `window.Parley.on` and the mount handle, declared once. */
export const WIDGET_EVENTS = ["open", "close", "message", "error", "ready"] as const;
export type WidgetEvent = (typeof WIDGET_EVENTS)[number];

/** A complete message, as the "message" event hands it to the host page. */
export interface WidgetMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  status?: "complete" | "interrupted";
}

export interface WidgetError {
  code: string;
  message: string;
}

export interface WidgetEventMap {
  open: undefined;
  close: undefined;
  message: WidgetMessage;
  error: WidgetError;
  ready: undefined;
}

export type Handler<E extends WidgetEvent = WidgetEvent> = (payload: WidgetEventMap[E]) => void;

export interface Emitter {
  on<E extends WidgetEvent>(event: E, handler: Handler<E>): () => void;
  emit<E extends WidgetEvent>(event: E, payload: WidgetEventMap[E]): void;
}

/** A host's handler that throws must not break the widget or the other handlers. */
export function createEmitter(): Emitter {
  const handlers = new Map<string, Set<Handler<never>>>();
  return {
    on(event, handler) {
      let set = handlers.get(event);
      if (!set) handlers.set(event, (set = new Set()));
      set.add(handler as Handler<never>);
      return () => void set.delete(handler as Handler<never>);
    },
    emit(event, payload) {
      handlers.get(event)?.forEach((h) => {
        try {
          (h as Handler<typeof event>)(payload);
        } catch (e) {
          setTimeout(() => {
            throw e;
          });
        }
      });
    },
  };
}

/** What `mount` returns and what the loader's `window.Parley` forwards to. */
export interface WidgetHandle {
  open(): void;
  close(): void;
  send(text: string): void;
  on: Emitter["on"];
  destroy(): void;
}

export interface MountOptions {
  siteKey: string;
  agentId: string;
  /** Base URL of the worker; defaults to the page's origin. */
  api?: string;
  /** "en" or "zh-CN"; defaults to navigator.language. */
  locale?: string;
  /** Open the panel right away. */
  open?: boolean;
  /** Draw the widget's own launcher button. The script-tag loader draws its own and passes false. */
  launcher?: boolean;
  /** Injected for tests and custom hosts. */
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem"> | null;
}
