import { ApiFailure } from "../api.ts";
import { t } from "../i18n.ts";

/** A form's refusal: the worker's issues by field path (`allowedOrigins.1`), and one line for the form. */
export interface FormErrors {
  fields: Record<string, string>;
  summary: string;
}

const S = {
  invalid: {
    en: "Some fields need a change: see the messages beside them.",
    "zh-CN": "部分字段需要修改:请看字段旁的提示。",
  },
  failed: { en: "Could not save: {m}", "zh-CN": "无法保存:{m}" },
};

/** The errors a failed call shows: each issue at its field, or the message alone when there are none. */
export function formErrors(err: unknown): FormErrors {
  const f = err instanceof ApiFailure ? err : new ApiFailure(0, "network", String(err));
  if (!f.issues.length) return { fields: {}, summary: t(S.failed).replace("{m}", f.message) };
  return { fields: Object.fromEntries(f.issues.map((i) => [i.path, i.message])), summary: t(S.invalid) };
}

/**
 * The message for a field that owns every path under `prefix` (the stages editor owns `stages.*`),
 * with the sub-path named so the owner finds the place in a long value.
 */
export function errorUnder(errors: FormErrors, prefix: string): string | undefined {
  const hits = Object.entries(errors.fields).filter(([p]) => p === prefix || p.startsWith(`${prefix}.`));
  if (!hits.length) return undefined;
  return hits.map(([p, m]) => (p === prefix ? m : `${p.slice(prefix.length + 1)}: ${m}`)).join("; ");
}

/** After a refusal, focus goes to the first field marked invalid, so a keyboard user lands on it. */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  requestAnimationFrame(() => form?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus());
}
