/**
 * What the redaction finds in a visitor's text, each kind replaced by its own placeholder (`[email]`,
 * `[phone]`, `[id-number]`, `[birth-date]`, `[address]`), so a reader of a redacted trace still sees what
 * kind of detail was there. `id-number`: national identity, insurance and passport numbers.
 */
export const PII_TYPES = ["email", "phone", "id-number", "birth-date", "address"] as const;
export type PiiType = (typeof PII_TYPES)[number];

export interface PiiMatch {
  type: PiiType;
  start: number;
  end: number;
}

export const placeholder = (type: PiiType) => `[${type}]`;

/** Every match of a global regex, as [start, end, groups]. */
export function* matchesOf(re: RegExp, text: string): Generator<RegExpExecArray> {
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    yield m;
    if (m[0].length === 0) re.lastIndex++;
  }
}
