import { localize } from "../../shared/agent-config.ts";
import type { ChatStore } from "../state/chat-store.ts";
import { CloseIcon } from "./icons.tsx";

export function Header({ store, view, onView }: { store: ChatStore; view: "chat" | "advice"; onView: (v: "chat" | "advice") => void }) {
  const { strings: s } = store;
  const adviceCount = store.advice.value.length;
  const agent = store.agent.value;
  const name = agent ? localize(agent.name, store.locale) : s.defaultTitle;
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
      {(adviceCount > 0 || view === "advice") && (
        <button type="button" class="pill" aria-pressed={view === "advice"} onClick={() => onView(view === "advice" ? "chat" : "advice")}>
          {view === "advice" ? s.back : `${s.adviceList} (${adviceCount})`}
        </button>
      )}
      <button type="button" class="icon-btn" aria-label={s.close} title={s.close} onClick={store.close}>
        <CloseIcon />
      </button>
    </div>
  );
}
