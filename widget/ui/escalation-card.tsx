import type { ChatStore } from "../state/chat-store.ts";
import CSS from "./escalation-card.css?inline";
import { addChunkCss } from "./chunk-css.ts";

addChunkCss(CSS);

/** Only digits, spaces and + go into a tel: link. */
const telHref = (n: string) => `tel:${n.replace(/[^\d+]/g, "")}`;

/**
 * The emergency guard's urgent card, pinned above the conversation so it stays in view while the
 * reply streams and after. It comes from the worker (what to do now, the numbers for where the
 * visitor is); the crisis variant has its own tone and no first-aid steps.
 */
export function EscalationCard({ store }: { store: ChatStore }) {
  const e = store.state.value.escalations?.at(-1);
  if (!e) return null;
  return (
    <section class={`escalation ${e.variant}`} role="alert" data-category={e.category} data-variant={e.variant}>
      <h3 class="esc-title">{e.title}</h3>
      <p class="esc-body">{e.body}</p>
      <ul class="esc-contacts">
        {e.contacts.map((c) => (
          <li key={c.number}>
            <a class="esc-call" href={telHref(c.number)}>
              {c.number}
            </a>
            <span>{c.label}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
