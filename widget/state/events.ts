/** Public event names of `window.Parley.on` and the mount handle, declared once. */
export const WIDGET_EVENTS = ["open", "close", "message", "advice", "stage", "unread", "error", "ready"] as const;
export type WidgetEvent = (typeof WIDGET_EVENTS)[number];

/** A complete message, as the "message" event hands it to the host page. */
export interface WidgetMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  status?: "complete" | "interrupted";
}

export interface WidgetAdvice {
  id: string;
  title: string;
  content: string;
  severity: "info" | "caution" | "urgent";
}

/** A stage workflow moved: `current` is null once the last stage is complete. */
export interface WidgetStage {
  current: string | null;
  completed: string[];
  done: boolean;
}

export interface WidgetError {
  code: string;
  message: string;
}

export interface WidgetEventMap {
  open: undefined;
  close: undefined;
  message: WidgetMessage;
  /** An advice card the assistant recorded. */
  advice: WidgetAdvice;
  stage: WidgetStage;
  /** Replies that arrived while the panel was closed (0 when it opens): the launcher's badge. */
  unread: number;
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
  /**
   * Switches the visitor (log in, log out, another account) without a reload: the conversation
   * shown is that identity's own, or a fresh one; the previous visitor's is never shown.
   */
  setIdentity(identity: string | undefined): void;
  setTheme(theme: WidgetTheme): void;
  /** Starts a new conversation; the old session's credentials are dropped. */
  clear(): void;
  destroy(): void;
}

export type WidgetTheme = "light" | "dark" | "auto";

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
  /**
   * Who the visitor is, e.g. your user id (any string; it is hashed, never stored as given).
   * Each identity has its own conversation; change it with `setIdentity`.
   */
  identity?: string;
  /** "auto" (default) follows the visitor's prefers-color-scheme. */
  theme?: WidgetTheme;
  /** "frame": the panel fills its container's window, no launcher (the iframe embed page). */
  layout?: "floating" | "frame";
  /** Debug mode for site owners: the panel offers a trace view of the session's steps. */
  debug?: boolean;
  /** Run the agent's saved draft (the owner's console preview; the worker asks for its cookie). */
  draft?: boolean;
  /**
   * The host page's CSP nonce. Browsers with constructable stylesheets need none; older ones get a
   * <style> with this nonce, or without one a <link> to the worker's /parley.css.
   */
  nonce?: string;
  /** Injected for tests and custom hosts. */
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem"> | null;
}
