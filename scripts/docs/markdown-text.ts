// Text from the API contract placed into generated Markdown pages. The contract's summaries use `code`
// spans and may name placeholders such as <token>, which a Markdown page would read as HTML tags.

/** Prose for a paragraph: angle brackets outside code spans become entities; code spans are kept. */
export function prose(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")))
    .join("");
}

/** Prose for a table cell: as {@link prose}, on one line, with its pipes escaped. */
export function cell(text: string): string {
  return prose(text).replace(/\r?\n/g, " ").replace(/\|/g, "\\|");
}

/** A value as a code span that survives a table cell (backticks inside widen the fence). */
export function code(value: string): string {
  const fence = value.includes("`") ? "`` " : "`";
  const close = value.includes("`") ? " ``" : "`";
  return `${fence}${value.replace(/\|/g, "\\|")}${close}`;
}

/** A Markdown table; an empty body gives no table at all. */
export function table(head: string[], body: string[][]): string {
  if (body.length === 0) return "";
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...body.map(line)].join("\n");
}
