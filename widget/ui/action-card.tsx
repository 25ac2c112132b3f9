import { useEffect, useState } from "preact/hooks";
import { localize } from "../../shared/config/localize.ts";
import type { ActionCard } from "../../shared/config/stage-config.ts";
import type { Strings } from "../i18n/index.ts";
import type { StageStrings } from "./stage-strings.ts";
import { loadToolRuntime } from "../state/load-tool-runtime.ts";
import type { StageActions } from "../state/stage-actions.ts";
import type { WidgetLocale } from "../i18n/index.ts";
import type { FieldValues } from "../../shared/stages/field-value.ts";

type LeadFormView = typeof import("./lead-card.tsx").LeadForm;
let leadForm: LeadFormView | null = null;

interface Props {
  card: ActionCard;
  stageId: string;
  actions: StageActions;
  locale: string;
  strings: Strings & StageStrings;
}

/** Runs a modal card's tool in the browser on the form's values (validated by the tool's schema). */
async function runTool(name: string, input: FieldValues): Promise<FieldValues> {
  // The tool runtime's parseToolInput: imported from shared/tools/tool.ts here too, it became a chunk of its own.
  const { TOOLS, createClientTools, parseToolInput } = await loadToolRuntime();
  const def = TOOLS[name];
  const parsed = def ? parseToolInput(def, input) : { ok: false as const, error: `unknown tool ${name}` };
  if (!parsed.ok) throw new Error(parsed.error);
  const impl = createClientTools({ messageId: () => "", onAdvice: () => {} })[name];
  return (await impl(parsed.value as never, {
    signal: new AbortController().signal,
    call: { id: "", type: "function", function: { name, arguments: "" } },
  })) as FieldValues;
}

/** A stage's action card: a deep link (http(s) only), an API call through the worker, or a small form. */
export function ActionCardView({ card, stageId, actions, locale, strings }: Props) {
  const [form, setForm] = useState<Record<string, string> | null>(null);
  // The lead form is the lead card's chunk (the chat shows it too): loaded when a stage shows one.
  const [, setLoaded] = useState(false);
  useEffect(() => {
    if (card.lead && !leadForm)
      void import("./lead-card.tsx").then(
        (m) => ((leadForm = m.LeadForm), setLoaded(true)),
        () => {},
      );
  }, [card.lead]);
  const [error, setError] = useState("");
  const title = localize(card.title, locale);
  const desc = card.description && localize(card.description, locale);

  // A lead card: its own form, the visitor's consent a box they tick themselves (lead-card.tsx).
  const LeadForm = leadForm;
  if (card.lead && card.type === "modal")
    return (
      <div class="card action" data-card={card.id}>
        <h4 class="card-title">{title}</h4>
        {desc && <p class="card-body">{desc}</p>}
        {LeadForm && (
          <LeadForm
            card={card}
            locale={locale as WidgetLocale}
            send={async (result) => (await actions.resolveAction(stageId, card, result)) !== null}
          />
        )}
      </div>
    );

  if (card.type === "deep_link") {
    const href = actions.deepLink(stageId, card);
    return (
      <div class="card action" data-card={card.id}>
        <h4 class="card-title">{title}</h4>
        {desc && <p class="card-body">{desc}</p>}
        {href && (
          <a
            class="chip"
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            onClick={() => void actions.resolveAction(stageId, card, { opened: href })}
          >
            {strings.open} ↗
          </a>
        )}
      </div>
    );
  }

  const submit = async (e: Event) => {
    e.preventDefault();
    setError("");
    try {
      const input: FieldValues = {};
      for (const f of card.form ?? []) {
        const raw = form?.[f.key]?.trim();
        if (raw) input[f.key] = f.type === "number" ? Number(raw) : raw;
      }
      const result = card.tool ? await runTool(card.tool, input) : input;
      if (await actions.resolveAction(stageId, card, result)) setForm(null);
    } catch {
      // The tool's schema refused the form's values; its message is for logs, not for visitors.
      setError(strings.errFormInvalid);
    }
  };

  return (
    <div class="card action" data-card={card.id}>
      <h4 class="card-title">{title}</h4>
      {desc && <p class="card-body">{desc}</p>}
      {card.type === "api_call" && (
        <button
          type="button"
          class="chip"
          disabled={actions.pending.value}
          onClick={() => void actions.resolveAction(stageId, card)}
        >
          {strings.run}
        </button>
      )}
      {card.type === "modal" && !form && (
        <button
          type="button"
          class="chip"
          onClick={() =>
            setForm(
              Object.fromEntries((card.form ?? []).filter((f) => f.options?.length).map((f) => [f.key, f.options![0]])),
            )
          }
        >
          {strings.open}
        </button>
      )}
      {card.type === "modal" && form && (
        <form class="modal-form" onSubmit={submit} aria-label={title}>
          {(card.form ?? []).map((f) => (
            <label key={f.key}>
              <span>{localize(f.label, locale)}</span>
              {f.type === "enum" ? (
                <select
                  class="input"
                  name={f.key}
                  value={form[f.key] ?? ""}
                  onChange={(e) => setForm({ ...form, [f.key]: e.currentTarget.value })}
                >
                  {(f.options ?? []).map((o) => (
                    <option key={o} value={o}>
                      {o}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  class="input"
                  name={f.key}
                  type="text"
                  inputMode={f.type === "number" ? "decimal" : "text"}
                  value={form[f.key] ?? ""}
                  onInput={(e) => setForm({ ...form, [f.key]: e.currentTarget.value })}
                />
              )}
            </label>
          ))}
          {error && (
            <p class="form-error" role="alert">
              {error}
            </p>
          )}
          <div class="row">
            <button type="submit" class="send small">
              {strings.calculate}
            </button>
            <button type="button" class="link-btn small" onClick={() => setForm(null)}>
              {strings.cancel}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
