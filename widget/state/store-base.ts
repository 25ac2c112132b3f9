import { batch, computed, signal } from "@preact/signals";
import type { ConsentNotice } from "../../shared/session/consent.ts";
import { errorText, type Strings, type WidgetLocale } from "../i18n/index.ts";
import { errorCode, isHttpError, type HttpError } from "../transport/errors.ts";
import type { FetchLike } from "../transport/http.ts";
import type { KeyValueStore } from "./browser-storage.ts";
import type { Emitter } from "./events.ts";
import { createHostNotifications } from "./host-notifications.ts";
import { createSessionStore } from "./session-store.ts";
import type { TakeoverContext } from "./takeover-actions.ts";
import type { ChatStatus } from "./live-slice.ts";
import type { StoredMessage } from "../../shared/session/session-events.ts";

export interface ChatStoreOptions {
  api: string;
  siteKey: string;
  agentId: string;
  identity?: string;
  draft?: boolean;
  locale: WidgetLocale;
  /** The strings of `locale` (i18n loadStrings). */
  strings: Strings;
  storage: KeyValueStore | null;
  fetch?: FetchLike;
  emitter: Emitter;
  toolTimeoutMs?: number;
  /** Where the composer's draft and a message waiting for the network survive a reload (default: sessionStorage). */
  draftStorage?: KeyValueStore | null;
  /** The page enabled debug mode: the panel offers the session's trace. */
  debug?: boolean;
}

export type ViewMessage = Pick<StoredMessage, "id" | "content" | "status"> & { role: "user" | "assistant" };

/**
 * What every slice of the chat store works with: the session, what the host page is told, and the
 * signals more than one slice writes. `fail` is the one way an error reaches the visitor and the host
 * page; `ready` opens the session (or finds it open) before an action that needs it.
 */
export function createStoreBase(opts: ChatStoreOptions) {
  const session = createSessionStore(opts);
  const isOpen = signal(false);
  const status = signal<ChatStatus>("idle");
  const error = signal<{ code: string; text: string } | null>(null);
  const notice = signal("");
  /** The consent notice the worker asks the visitor to agree to first (its refusal carried it), or null. */
  const consent = signal<ConsentNotice | null>(null);
  /** Text for the aria-live region: a finished reply, an error. */
  const announcement = signal("");
  const host = createHostNotifications(opts.emitter, session, isOpen);

  function fail(e: unknown, message?: string): void {
    // Consent first (or again, for a new version): the panel shows the notice; nothing was stored.
    const asked = (e as HttpError).detail?.consent;
    if (asked) return void ((consent.value = asked), (status.value = "idle"));
    const code = errorCode(e);
    const text = message ?? errorText(opts.strings, code, isHttpError(e) ? e.retryAfter : undefined, opts.locale);
    batch(() => {
      error.value = { code, text };
      status.value = "error";
      announcement.value = text;
    });
    host.failed(code, (e as Error)?.message ?? String(e));
  }

  /** Opens the session, or finds it open, showing "connecting" meanwhile; false: it failed (and says so). */
  async function ready(): Promise<boolean> {
    error.value = null;
    status.value = "connecting";
    try {
      await session.ensure();
      return true;
    } catch (e) {
      fail(e);
      return false;
    }
  }

  /**
   * The session for the panel alone (no turn follows): back to idle once it is open. Called only while
   * no turn runs (idle, error or connecting), so ready()'s "connecting" replaces nothing a turn shows.
   */
  const connect = () => ready().then((ok) => void (ok && status.value === "connecting" && (status.value = "idle")));

  return {
    opts,
    session,
    /** A returning visitor: their stored conversation is being restored, to show before the panel opens. */
    returning: session.hasCredentials(),
    isOpen,
    status,
    error,
    notice,
    consent,
    announcement,
    host,
    messages: computed<ViewMessage[]>(() =>
      session.state.value.messages.filter(
        (m): m is StoredMessage & ViewMessage => m.role === "user" || m.role === "assistant",
      ),
    ),
    /** The worker and the session, as the lazy chunks' steps take them (takeover, the visitor's rights). */
    ctx: { api: opts.api, fetch: opts.fetch, session } as TakeoverContext,
    fail,
    connect,
    ready,
  };
}

export type StoreBase = ReturnType<typeof createStoreBase>;
