/**
 * CSV (RFC 4180) of rows: every cell quoted, quotes doubled. A cell a spreadsheet would run as a
 * formula (starting with = + - @, a tab or a carriage return) gets a leading apostrophe: the
 * visitor's text is untrusted and the owner opens the file in a spreadsheet (OWASP's CSV injection).
 */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<unknown>>): string {
  const cell = (v: unknown) => {
    let text = v === null || v === undefined ? "" : String(v);
    if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
    return `"${text.replace(/"/g, '""')}"`;
  };
  return [header, ...rows].map((r) => r.map(cell).join(",")).join("\r\n") + "\r\n";
}
