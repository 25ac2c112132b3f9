import { localize } from "../../shared/config/localize.ts";
import type { ChatStore } from "../state/chat-store.ts";
import CSS from "./advice.css?inline";
import { adviceStrings } from "./advice-strings.ts";
import { addChunkCss } from "./chunk-css.ts";
import { LazyPhotoThumbs } from "./photo-slots.tsx";
import type { Advice } from "../../shared/session/session-events.ts";

addChunkCss(CSS);

const SEVERITY_LABEL = { info: "sevInfo", caution: "sevCaution", urgent: "sevUrgent" } as const;

/**
 * One piece of advice the model recorded with record_advice: title, severity, content, evidence. A
 * chunk of its own with the advice list below: only agents that record advice need it, and it
 * loads as soon as their config is known (app.tsx).
 */
export function AdviceCard({ advice, locale, disclaimer }: { advice: Advice; locale: string; disclaimer?: string }) {
  const strings = adviceStrings(locale);
  return (
    <article
      class={`card advice ${advice.severity}`}
      data-advice-id={advice.id}
      aria-label={`${strings.advice}: ${advice.title}`}
      tabIndex={0}
    >
      <div class="card-top">
        <span class="sev">{strings[SEVERITY_LABEL[advice.severity]]}</span>
        <span class="cat">{advice.category}</span>
      </div>
      <h4 class="card-title">{advice.title}</h4>
      <p class="card-body">{advice.content}</p>
      {(advice.evidence.length > 0 || advice.photos) && (
        <div class="evidence">
          <div class="ev-label">{strings.evidence}</div>
          {advice.photos && <LazyPhotoThumbs ids={advice.photos} />}
          <ul>
            {advice.evidence.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
        </div>
      )}
      {disclaimer && <p class="disclaimer">{disclaimer}</p>}
    </article>
  );
}

/** Every piece of advice of this conversation, newest first: what the visitor keeps. */
export function AdviceList({ store }: { store: ChatStore }) {
  const items = [...store.advice.value].reverse();
  const d = store.agent.value?.disclaimer;
  const disclaimer = d && localize(d, store.locale);
  return (
    <div class="list advice-list" role="region" aria-label={store.strings.adviceList}>
      {items.length === 0 ? (
        <p class="status">{adviceStrings(store.locale).adviceEmpty}</p>
      ) : (
        items.map((a) => <AdviceCard key={a.id} advice={a} locale={store.locale} disclaimer={disclaimer} />)
      )}
    </div>
  );
}
