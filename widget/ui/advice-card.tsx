import type { Advice } from "../../shared/session.ts";
import type { Strings } from "../i18n/index.ts";
import { LazyPhotoThumbs } from "./photo-slots.tsx";

const SEVERITY_LABEL = { info: "sevInfo", caution: "sevCaution", urgent: "sevUrgent" } as const;

/** One piece of advice the model recorded with record_advice: title, severity, content, evidence. */
export function AdviceCard({ advice, strings, disclaimer }: { advice: Advice; strings: Strings; disclaimer?: string }) {
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
