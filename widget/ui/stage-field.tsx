import { useState } from "preact/hooks";
import { localize } from "../../shared/config/localize.ts";
import type { StageField } from "../../shared/config/stage-config.ts";
import type { Strings } from "../i18n/index.ts";
import type { StageStrings } from "./stage-strings.ts";
import type { FieldValue } from "../../shared/stages/field-value.ts";

interface Props {
  field: StageField;
  value: FieldValue | undefined;
  locale: string;
  strings: Strings & StageStrings;
  editable: boolean;
  onSave: (value: FieldValue) => Promise<boolean>;
}

const asText = (v: FieldValue | undefined) => (Array.isArray(v) ? v.join("\n") : v == null ? "" : String(v));

function parse(field: StageField, text: string): FieldValue {
  const t = text.trim();
  if (!t) return null;
  if (field.type === "number") return Number(t.replace(",", "."));
  if (field.type === "list")
    return t
      .split(/\n|;/)
      .map((x) => x.trim())
      .filter(Boolean);
  return t;
}

/** One collected value, readable, and editable in place (saved as the visitor's own event). */
export function StageFieldRow({ field, value, locale, strings, editable, onSave }: Props) {
  const [draft, setDraft] = useState<string | null>(null);
  const label = localize(field.label, locale);
  const id = `f-${field.key}`;
  if (draft === null) {
    const shown = Array.isArray(value) ? value.join("; ") : asText(value);
    return (
      <div class="field" data-field={field.key}>
        <dt>{label}</dt>
        <dd>
          <span class={shown ? "" : "mut"}>{shown || strings.empty}</span>
          {editable && (
            <button
              type="button"
              class="link-btn small"
              aria-label={`${strings.edit}: ${label}`}
              onClick={() => setDraft(asText(value))}
            >
              {strings.edit}
            </button>
          )}
        </dd>
      </div>
    );
  }
  const save = async (e: Event) => {
    e.preventDefault();
    if (await onSave(parse(field, draft))) setDraft(null);
  };
  return (
    <form class="field editing" data-field={field.key} onSubmit={save}>
      <label for={id}>{label}</label>
      {field.type === "enum" ? (
        <select id={id} class="input" value={draft} onChange={(e) => setDraft(e.currentTarget.value)}>
          <option value="" />
          {(field.options ?? []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      ) : field.type === "text" || field.type === "list" ? (
        <textarea id={id} class="input" rows={3} value={draft} onInput={(e) => setDraft(e.currentTarget.value)} />
      ) : (
        <input
          id={id}
          class="input"
          type="text"
          inputMode={field.type === "number" ? "decimal" : "text"}
          value={draft}
          onInput={(e) => setDraft(e.currentTarget.value)}
        />
      )}
      <div class="row">
        <button type="submit" class="send small">
          {strings.save}
        </button>
        <button type="button" class="link-btn small" onClick={() => setDraft(null)}>
          {strings.cancel}
        </button>
      </div>
    </form>
  );
}
