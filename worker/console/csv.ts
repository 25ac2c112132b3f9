/**
 * A cell a spreadsheet would run as a formula: one starting with = + - @, their full-width forms
 * (＝ ＋ － ＠, which spreadsheets in CJK locales read as the ASCII ones), or a tab, carriage return
 * or line feed (which some skip before reading the formula).
 */
const FORMULA_START = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * CSV (RFC 4180) of rows: every cell quoted, quotes doubled. A cell that starts like a formula gets
 * a leading apostrophe: the visitor's text is untrusted and the owner opens the file in a
 * spreadsheet (OWASP's CSV injection).
 */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<unknown>>): string {
  const cell = (v: unknown) => {
    let text = v === null || v === undefined ? "" : String(v);
    if (FORMULA_START.test(text)) text = `'${text}`;
    return `"${text.replace(/"/g, '""')}"`;
  };
  return [header, ...rows].map((r) => r.map(cell).join(",")).join("\r\n") + "\r\n";
}
