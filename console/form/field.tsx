import type { ComponentChildren } from "preact";

/** The attributes that tie an input to its label's field: id, invalid state, the error and hint it is described by. */
export function fieldAttrs(id: string, error?: string, hint?: string) {
  const described = [error ? `${id}-error` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ");
  return { id, "aria-invalid": error ? ("true" as const) : undefined, "aria-describedby": described || undefined };
}

/**
 * A labelled field with its hint and its error beside it (the input comes as children, built with
 * `fieldAttrs(id, error, hint)`): the error is where the owner looks, and read with the input.
 */
export function Field(props: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  children: ComponentChildren;
}) {
  const { id, label, error, hint, children } = props;
  return (
    <div class={error ? "field invalid" : "field"}>
      <label for={id}>{label}</label>
      {children}
      {hint && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** A text input in a Field; `onValue` gets the new text. */
export function TextField(props: {
  id: string;
  label: string;
  value: string;
  onValue: (v: string) => void;
  error?: string;
  hint?: string;
  multiline?: number;
  lang?: string;
}) {
  const { id, label, value, onValue, error, hint, multiline, lang } = props;
  const attrs = fieldAttrs(id, error, hint);
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      {multiline ? (
        <textarea
          {...attrs}
          lang={lang}
          rows={multiline}
          value={value}
          onInput={(e) => onValue(e.currentTarget.value)}
        />
      ) : (
        <input {...attrs} lang={lang} value={value} onInput={(e) => onValue(e.currentTarget.value)} />
      )}
    </Field>
  );
}
