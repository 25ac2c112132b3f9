import type { OpeningWindow } from "../../shared/config/takeover-config.ts";

const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/**
 * Opening hours as an owner writes them on the Setup page: `Mon-Fri 09:00-17:30; Sat 10:00-14:00`
 * (windows by `;` or line, days by `,` with ranges). One line is quicker to read and fix than a
 * grid of 14 inputs; the worker checks the result again (shared/config/takeover-config.ts).
 */
export function parseHours(text: string): { windows: OpeningWindow[] } | { error: string } {
  const windows: OpeningWindow[] = [];
  for (const part of text.split(/[;\n]/).map((p) => p.trim())) {
    if (!part) continue;
    const m = /^([A-Za-z,\s-]+?)\s+(\d{2}:\d{2})\s*-\s*(\d{2}:\d{2})$/.exec(part);
    if (!m) return { error: `"${part}": write it as Mon-Fri 09:00-17:30` };
    const days = new Set<number>();
    for (const token of m[1].split(",").map((d) => d.trim().toLowerCase())) {
      const [a, b] = token.split("-").map((d) => DAYS.indexOf(d.trim().slice(0, 3)));
      if (a === -1 || b === -1) return { error: `"${token}": days are Sun, Mon, Tue, Wed, Thu, Fri, Sat` };
      for (let d = a; ; d = (d + 1) % 7) {
        days.add(d);
        if (b === undefined || d === b) break;
      }
    }
    windows.push({ days: [...days].sort(), from: m[2], to: m[3] });
  }
  return { windows };
}

export function formatHours(windows: OpeningWindow[]): string {
  return windows
    .map((w) => {
      const sorted = [...w.days].sort();
      const run = sorted.every((d, i) => i === 0 || d === sorted[i - 1] + 1) && sorted.length > 2;
      const days = run ? `${NAMES[sorted[0]]}-${NAMES[sorted.at(-1)!]}` : sorted.map((d) => NAMES[d]).join(",");
      return `${days} ${w.from}-${w.to}`;
    })
    .join("; ");
}
