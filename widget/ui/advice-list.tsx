import { localize } from "../../shared/localize.ts";
import type { ChatStore } from "../state/chat-store.ts";
import { AdviceCard } from "./advice-card.tsx";

/** Every piece of advice of this conversation, newest first: what the visitor keeps. */
export function AdviceList({ store }: { store: ChatStore }) {
  const items = [...store.advice.value].reverse();
  const d = store.agent.value?.disclaimer;
  const disclaimer = d && localize(d, store.locale);
  return (
    <div class="list advice-list" role="region" aria-label={store.strings.adviceList}>
      {items.length === 0 ? (
        <p class="status">{store.strings.adviceEmpty}</p>
      ) : (
        items.map((a) => <AdviceCard key={a.id} advice={a} strings={store.strings} disclaimer={disclaimer} />)
      )}
    </div>
  );
}
