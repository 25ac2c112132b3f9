/**
 * Prompt templates (the strategy desk compiles prompts fetched by path with variables): `{{name}}`
 * placeholders. Pure: the registry validates with it on save, the chat path and the desk compile.
 */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export class PromptCompileError extends Error {
  override name = "PromptCompileError";
  constructor(
    readonly kind: "missing" | "unknown",
    readonly variable: string,
    readonly path = "",
  ) {
    super(
      kind === "missing"
        ? `Prompt ${path || "(template)"} needs variable ${JSON.stringify(variable)}, which was not given`
        : `Prompt ${path || "(template)"} has no variable ${JSON.stringify(variable)}`,
    );
  }
}

/** The variables a text uses, each once, in order of first use. */
export function variablesOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))];
}

export interface Template {
  text: string;
  /** Declared variables: exactly those the text uses (checked when a version is saved). */
  variables: readonly string[];
  path?: string;
}

/**
 * Fills every placeholder. A declared variable that is not given, or a given one the template
 * does not declare, is an error naming it: a silent empty string is how a prompt quietly loses
 * its context, and an unknown one is usually a typo in the caller.
 */
export function compile(template: Template, vars: Readonly<Record<string, string>>): string {
  for (const name of template.variables) {
    if (!Object.hasOwn(vars, name)) throw new PromptCompileError("missing", name, template.path);
  }
  for (const name of Object.keys(vars)) {
    if (!template.variables.includes(name)) throw new PromptCompileError("unknown", name, template.path);
  }
  return template.text.replace(PLACEHOLDER, (_, name: string) => vars[name]);
}
