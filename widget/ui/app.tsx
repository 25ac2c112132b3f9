import type { Signal } from "@preact/signals";
import { useEffect, useRef, useState } from "preact/hooks";
import type { ChatStore } from "../state/chat-store.ts";
import type { WidgetTheme } from "../state/events.ts";
import { formatCount } from "../i18n/index.ts";
import { Composer } from "./composer.tsx";
import { Header, type PanelView } from "./header.tsx";
import { ChatIcon, CloseIcon } from "./icons.tsx";
import { lazyComponent } from "./lazy.tsx";
import { LazyMarkdown } from "./lazy-markdown.tsx";
import { MessageList } from "./message-list.tsx";
import { PanelStore } from "./panel-store.ts";

// The advice list: only agents that record advice, opened from the header once there is some.
const LazyAdviceList = lazyComponent(() => import("./reply-extras.ts").then((m) => m.AdviceList));
// The emergency guard's card: loaded with the reply extras as the first message is sent (reply-extras.ts).
// Cards under the conversation (booking's slots card, a sales agent's lead card), in a chunk of their own:
// only agents that book visits or take leads show them.
const LazyChatCards = lazyComponent(() => import("./chat-cards.tsx").then((m) => m.ChatCards));
const LazyEscalationCard = lazyComponent(() => import("./reply-extras.ts").then((m) => m.EscalationCard));
/** Reads the session on its own, so a new event redraws this and not the panel. */
const Escalation = ({ store }: { store: ChatStore }) =>
  store.state.value.escalations?.length ? <LazyEscalationCard store={store} /> : null;
// Only stage agents need the stage panel; its code loads the first time it is shown.
const LazyStagePanel = lazyComponent(() => import("./stage-panel.tsx").then((m) => m.StagePanel));
// Takeover: asking for a person, waiting, the contact form, who handles the chat; only
// where the site hands conversations to its staff, or a person took part.
const LazyTakeoverBar = lazyComponent(() => import("./takeover.tsx").then((m) => m.TakeoverBar));
// Only site owners in debug mode see the trace view: its code loads the first time it is opened.
const LazyTraceView = lazyComponent(() => import("./trace-view.tsx").then((m) => m.TraceView));
// The consent notice (agents that ask one) and the visitor's own data (download, erase): one chunk.
const LazyPrivacy = lazyComponent(() => import("../privacy/privacy-kit.tsx").then((m) => m.PrivacyView));

/**
 * The full-screen panel of a narrow viewport: the host page must not scroll behind it, and the
 * on-screen keyboard must not cover the composer. Browsers that overlay the keyboard shrink only
 * the visual viewport, so the panel follows that (--viewport-height, --viewport-top; CSS falls back to 100dvh).
 */
let scrollLocks = 0;
let savedOverflow: [string, string] = ["", ""];
/**
 * Locks the host page's scrolling; the last unlock restores what the page had. Counted, so a panel
 * remounted before the old one's cleanup ran cannot save "hidden" as the page's own value.
 */
function lockPageScroll(): () => void {
  const { documentElement: html, body } = document;
  if (scrollLocks++ === 0) {
    savedOverflow = [html.style.overflow, body.style.overflow];
    html.style.overflow = body.style.overflow = "hidden";
  }
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--scrollLocks === 0) [html.style.overflow, body.style.overflow] = savedOverflow;
  };
}

function useFullScreen(ref: { current: HTMLDivElement | null }, floating: boolean) {
  useEffect(() => {
    const el = ref.current;
    if (!el || !floating || !matchMedia("(max-width:480px)").matches) return;
    const unlock = lockPageScroll();
    const vv = window.visualViewport;
    const fit = () => {
      el.style.setProperty("--viewport-height", `${vv!.height}px`);
      el.style.setProperty("--viewport-top", `${vv!.offsetTop}px`);
    };
    if (vv) {
      fit();
      vv.addEventListener("resize", fit);
      vv.addEventListener("scroll", fit);
    }
    return () => {
      unlock();
      vv?.removeEventListener("resize", fit);
      vv?.removeEventListener("scroll", fit);
    };
  }, []);
}

function Panel({ store, floating }: { store: ChatStore; floating: boolean }) {
  const [view, setView] = useState<PanelView>("chat");
  const ref = useRef<HTMLDivElement>(null);
  useFullScreen(ref, floating);
  // An agent that records advice shows cards in its first reply, and one with the emergency guard may show
  // its card before any reply text: their chunk (reply-extras.ts) loads with the agent's config.
  const agent = store.agent.value;
  const cards = !!agent && (agent.tools.includes("record_advice") || agent.guards?.emergency);
  // Consent first: the notice the worker's refusal carried (before a conversation opens, or before the
  // next message of one whose notice has a new version) takes the place of the list and the composer.
  const notice = store.consent.value;
  useEffect(() => {
    // Each lazy component keeps its own loaded code: the card's must be there before the first
    // escalation, or it draws a frame after the reply's first words.
    if (cards) for (const c of [LazyAdviceList, LazyEscalationCard]) void c.preload().catch(() => {});
  }, [cards]);
  return (
    <div
      ref={ref}
      class="panel"
      role="dialog"
      aria-labelledby="parley-title"
      onKeyDown={(e) => {
        if (e.key === "Escape") store.close();
      }}
    >
      <Header store={store} view={view} onView={setView} />
      <Escalation store={store} />
      {!store.online.value && (
        <div class="offline" role="status">
          {store.strings.offline}
        </div>
      )}
      {notice || view === "privacy" ? (
        <LazyPrivacy store={store} notice={notice} onView={setView} />
      ) : view === "advice" ? (
        <LazyAdviceList store={store} />
      ) : view === "stages" ? (
        <LazyStagePanel store={store} />
      ) : view === "trace" ? (
        <LazyTraceView store={store} />
      ) : (
        <>
          <MessageList store={store} />
          {!!(store.state.value.bookings?.length || store.state.value.leads?.length) && <LazyChatCards store={store} />}
        </>
      )}
      {(store.agent.value?.tools.includes("ask_for_person") || store.state.value.personRequest) && (
        <LazyTakeoverBar store={store} />
      )}
      {!notice && <Composer store={store} />}
      <div class="foot">{store.strings.poweredBy}</div>
    </div>
  );
}

interface AppProps {
  store: ChatStore;
  launcher: boolean;
  theme: Signal<WidgetTheme>;
  /** The iframe embed page: the panel fills the frame. */
  frame: boolean;
}

export function App({ store, launcher, theme, frame }: AppProps) {
  const open = store.isOpen.value;
  // The greeting and replies are markdown: its chunk loads as the panel opens (while the session is
  // being created), or at once when a returning visitor's conversation is being restored.
  useEffect(() => {
    if (open || store.returning) void LazyMarkdown.preload().catch(() => {});
  }, [open]);
  const unread = store.unread.value;
  const s = store.strings;
  const label = open
    ? s.launcherClose
    : unread
      ? `${s.launcherOpen} (${formatCount(store.locale, unread)} ${s.unread})`
      : s.launcherOpen;
  return (
    <div class={frame ? "root frame" : "root"} lang={store.locale} data-theme={theme.value}>
      {open && (
        <PanelStore.Provider value={store}>
          <Panel store={store} floating={!frame} />
        </PanelStore.Provider>
      )}
      {launcher && (
        <button
          type="button"
          class="launcher"
          aria-label={label}
          title={label}
          aria-expanded={open}
          onClick={() => (open ? store.close() : store.open())}
        >
          {open ? <CloseIcon /> : <ChatIcon />}
          {unread > 0 && !open && (
            <span class="unread" aria-hidden="true">
              {formatCount(store.locale, unread)}
            </span>
          )}
        </button>
      )}
      <div class="sr" aria-live="polite" aria-atomic="true">
        {store.announcement.value}
      </div>
    </div>
  );
}
