import { describe, expect, it } from "vitest";
import { toCsv } from "../../../worker/console/csv.ts";

const cellOf = (text: string) => toCsv(["h"], [[text]]).split("\r\n")[1];

describe("toCsv", () => {
  it.each([
    ["=", '=HYPERLINK("https://evil.example","x")'],
    ["+", "+1+cmd|' /C calc'!A0"],
    ["-", "-2+3"],
    ["@", "@SUM(A1:A2)"],
    ["a tab", "\t=1+1"],
    ["a carriage return", "\r=1+1"],
    ["a line feed", "\n=1+1"],
    ["a full-width =", '＝HYPERLINK("https://evil.example")'],
    ["a full-width +", "＋1+1"],
    ["a full-width -", "－1+1"],
    ["a full-width @", "＠SUM(A1)"],
  ])("quotes a cell starting with %s as text (a leading apostrophe)", (_what, text) => {
    expect(cellOf(text)).toBe(`"'${text.replace(/"/g, '""')}"`);
  });

  it("leaves other cells as they are, quotes doubled", () => {
    expect(cellOf('it said, "ask a doctor"')).toBe('"it said, ""ask a doctor"""');
    expect(cellOf("a = b, then @ c")).toBe('"a = b, then @ c"');
    expect(cellOf("")).toBe('""');
  });
});
