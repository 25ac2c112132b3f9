import { localize } from "../../shared/config/localize.ts";
import { orderedStages } from "../../shared/stages/stage-machine.ts";
import { errorText } from "../i18n/index.ts";
import type { ChatStore } from "../state/chat-store.ts";
import { buildSummary } from "../state/protocol-summary.ts";
import { stageActionsFor } from "../state/stage-actions.ts";
import { ActionCardView } from "./action-card.tsx";
import { Markdown } from "./markdown.tsx";
import { StageFieldRow } from "./stage-field.tsx";
import CSS from "./stage-panel.css?inline";
import { stageStrings } from "./stage-strings.ts";
import { addChunkCss } from "./chunk-css.ts";

addChunkCss(CSS);

/**
 * The guided workflow (the protocol designer's stage workflow): progress through the stages, each
 * stage's collected values (editable in place), the current stage's action cards and its "complete"
 * button with the checks that block or warn, and the summary once every stage is done.
 */
export function StagePanel({ store }: { store: ChatStore }) {
  const agent = store.agent.value;
  const state = store.state.value;
  const { locale } = store;
  const s = { ...store.strings, ...stageStrings(locale) };
  const actions = stageActionsFor(store.stageApi);
  if (!agent?.stages.length) return null;
  const feedback = actions.feedback.value;
  const stages = orderedStages(agent.stages);
  const current = state.stage.current;
  return (
    <div class="list stage-panel" role="region" aria-label={s.stages}>
      <ol class="progress" aria-label={s.stages}>
        {stages.map((st) => {
          const status = state.stage.completed.includes(st.id) ? "done" : st.id === current ? "current" : "next";
          return (
            <li key={st.id} class={status} aria-current={status === "current" ? "step" : undefined}>
              <span class="dot" aria-hidden="true" />
              {localize(st.name, locale)}
              {status !== "next" && <span class="sr"> ({status === "done" ? s.stageDone : s.stageCurrent})</span>}
            </li>
          );
        })}
      </ol>
      {stages
        .filter((st) => st.id === current || state.stage.completed.includes(st.id))
        .map((st) => {
          const values = state.context[st.id] ?? {};
          const isCurrent = st.id === current;
          const mine = feedback?.stageId === st.id ? feedback : null;
          return (
            <section
              key={st.id}
              class={`stage${isCurrent ? " current" : ""}`}
              data-stage={st.id}
              aria-label={localize(st.name, locale)}
            >
              <h4>{localize(st.name, locale)}</h4>
              <dl>
                {st.fields.map((f) => (
                  <StageFieldRow
                    key={f.key}
                    field={f}
                    value={values[f.key]}
                    locale={locale}
                    strings={s}
                    editable={!actions.pending.value}
                    onSave={(v) => actions.editField(st.id, f.key, v)}
                  />
                ))}
              </dl>
              {mine && (
                <div class={`checks ${mine.kind}`} role="alert">
                  {mine.kind === "checks" ? (
                    <>
                      <p>{mine.checks!.some((c) => c.action === "block") ? s.blocked : s.warnings}</p>
                      <ul>
                        {mine.checks!.map((c) => (
                          <li key={c.ruleId} class={c.severity}>
                            {localize(c.message, locale)}
                            {c.suggestion && <span class="mut"> {localize(c.suggestion, locale)}</span>}
                          </li>
                        ))}
                      </ul>
                    </>
                  ) : (
                    <p>
                      {mine.kind === "conflict"
                        ? s.conflict
                        : mine.code === "validation_failed"
                          ? s.errFormInvalid
                          : errorText(s, mine.code ?? "internal", mine.retryAfter, locale)}
                    </p>
                  )}
                </div>
              )}
              {isCurrent &&
                st.actionCards.map((card) => (
                  <ActionCardView
                    key={card.id}
                    card={card}
                    stageId={st.id}
                    actions={actions}
                    locale={locale}
                    strings={s}
                  />
                ))}
              {isCurrent && (
                <button
                  type="button"
                  class="send complete"
                  disabled={actions.pending.value}
                  onClick={() => void actions.complete(st.id)}
                >
                  {s.completeStage}
                </button>
              )}
            </section>
          );
        })}
      {state.stage.done && <Summary store={store} />}
    </div>
  );
}

function Summary({ store }: { store: ChatStore }) {
  const { locale } = store;
  const s = { ...store.strings, ...stageStrings(locale) };
  const md = buildSummary(store.agent.value!, store.state.value, locale);
  const download = () => {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([md], { type: "text/markdown" }));
    a.download = "protocol-summary.md";
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  return (
    <section class="stage summary" aria-label={s.summary}>
      <p class="done-note">{s.workflowDone}</p>
      <div class="row">
        <button type="button" class="chip" onClick={() => void navigator.clipboard?.writeText(md)}>
          {s.copySummary}
        </button>
        <button type="button" class="chip" onClick={download}>
          {s.download}
        </button>
      </div>
      <div class="bubble summary-md">
        <Markdown text={md} />
      </div>
    </section>
  );
}
