import { localize } from "../../shared/agent-config.ts";
import type { ChatStore } from "../state/chat-store.ts";
import { CloseIcon } from "./icons.tsx";

export function Header({ store }: { store: ChatStore }) {
  const { strings: s } = store;
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
      <button type="button" class="icon-btn" aria-label={s.close} title={s.close} onClick={store.close}>
        <CloseIcon />
      </button>
    </div>
  );
}
