import { localize } from "../../shared/config/localize.ts";
import type { ChatStore } from "../state/chat-store.ts";
import { formatCount } from "../i18n/index.ts";
import { BookmarkIcon, CloseIcon, DataIcon, NewIcon } from "./icons.tsx";

export type PanelView = "chat" | "advice" | "stages" | "trace" | "privacy";

export function Header({ store, view, onView }: { store: ChatStore; view: PanelView; onView: (v: PanelView) => void }) {
  const { strings: s } = store;
  const adviceCount = store.advice.value.length;
  const agent = store.agent.value;
  const name = agent ? localize(agent.name, store.locale) : s.defaultTitle;
  const count = formatCount(store.locale, adviceCount);
  const adviceLabel = `${s.adviceList} (${count})`;
  return (
    <div class="head">
      <div class="avatar" aria-hidden="true">
        {name.slice(0, 1).toUpperCase()}
      </div>
      <div class="titles">
        <div class="title" id="parley-title">
          {name}
          {agent?.demo && <span class="badge">{s.demo}</span>}
        </div>
        <div class="sub">{s.subtitle}</div>
      </div>
      {!!agent?.stages.length && (view === "chat" || view === "stages") && (
        <button
          type="button"
          class="pill"
          data-action="stages"
          aria-pressed={view === "stages"}
          onClick={() => onView(view === "stages" ? "chat" : "stages")}
        >
          {view === "stages"
            ? s.back
            : `${s.stages} ${formatCount(store.locale, store.state.value.stage.completed.length)}/` +
              formatCount(store.locale, agent.stages.length)}
        </button>
      )}
      {(adviceCount > 0 || view === "advice") && (view === "chat" || view === "advice") && (
        // An icon and the count, named in full on hover and, after the count it shows, for assistive tech
        // (WCAG 2.5.3: the accessible name contains the visible text): the agent's name keeps the room.
        <button
          type="button"
          class="pill"
          data-action="advice"
          aria-pressed={view === "advice"}
          title={view === "advice" ? undefined : adviceLabel}
          onClick={() => onView(view === "advice" ? "chat" : "advice")}
        >
          {view === "advice" ? (
            s.back
          ) : (
            <>
              <BookmarkIcon />
              {count}
              <span class="sr"> {s.adviceList}</span>
            </>
          )}
        </button>
      )}
      {store.debug && (view === "chat" || view === "trace") && (
        <button
          type="button"
          class="pill"
          data-action="trace"
          aria-pressed={view === "trace"}
          onClick={() => onView(view === "trace" ? "chat" : "trace")}
        >
          {view === "trace" ? s.back : s.trace}
        </button>
      )}
      {store.messages.value.length > 0 && (view === "chat" || view === "privacy") && (
        // The visitor's own data: download their conversation, or delete it (the privacy chunk). An icon
        // named in full, as the advice button: the agent's name keeps the header's room.
        <button
          type="button"
          class={view === "privacy" ? "pill" : "icon-btn"}
          data-action="privacy"
          aria-pressed={view === "privacy"}
          aria-label={view === "privacy" ? undefined : s.yourData}
          title={view === "privacy" ? undefined : s.yourData}
          onClick={() => onView(view === "privacy" ? "chat" : "privacy")}
        >
          {view === "privacy" ? s.back : <DataIcon />}
        </button>
      )}
      {store.messages.value.length > 0 && (
        <button
          type="button"
          class="icon-btn"
          data-action="new-chat"
          aria-label={s.newChat}
          title={s.newChat}
          onClick={() => (onView("chat"), store.clear())}
        >
          <NewIcon />
        </button>
      )}
      <button type="button" class="icon-btn" aria-label={s.close} title={s.close} onClick={store.close}>
        <CloseIcon />
      </button>
    </div>
  );
}
