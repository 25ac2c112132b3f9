/**
 * A unified diff of two texts by lines (what `diff -u` and Python's difflib print), for the
 * admin API and for the strategy desk's agent C, who reviews the desk's edits as a diff. Pure.
 */
const CONTEXT = 3;
/** Beyond this many line pairs the longest-common-subsequence table is not built. */
const MAX_CELLS = 4_000_000;

type Op = { kind: " " | "-" | "+"; line: string };

function lineOps(a: string[], b: string[]): Op[] {
  // Common head and tail are cheap to strip and are most of a small edit.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length,
    endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA),
    midB = b.slice(start, endB);
  const ops: Op[] = a.slice(0, start).map((line) => ({ kind: " ", line }));
  if ((midA.length + 1) * (midB.length + 1) > MAX_CELLS) {
    ops.push(
      ...midA.map((line) => ({ kind: "-" as const, line })),
      ...midB.map((line) => ({ kind: "+" as const, line })),
    );
  } else {
    const n = midA.length,
      m = midB.length;
    const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i][j] = midA[i] === midB[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    let i = 0,
      j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        ops.push({ kind: " ", line: midA[i] });
        i++;
        j++;
      }
      // Removals before additions, as diff -u prints a changed line.
      else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) ops.push({ kind: "-", line: midA[i++] });
      else ops.push({ kind: "+", line: midB[j++] });
    }
  }
  ops.push(...a.slice(endA).map((line) => ({ kind: " " as const, line })));
  return ops;
}

const range = (start: number, count: number) =>
  count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`;

/** `""` when the texts are equal. */
export function unifiedDiff(before: string, after: string, fromName = "before", toName = "after"): string {
  if (before === after) return "";
  const ops = lineOps(before.split("\n"), after.split("\n"));
  const changed = ops.map((op, i) => (op.kind === " " ? -1 : i)).filter((i) => i >= 0);
  const out = [`--- ${fromName}`, `+++ ${toName}`];
  let k = 0;
  while (k < changed.length) {
    // A hunk: changes closer than two contexts apart share one.
    let last = k;
    while (last + 1 < changed.length && changed[last + 1] - changed[last] <= 2 * CONTEXT) last++;
    const from = Math.max(0, changed[k] - CONTEXT),
      to = Math.min(ops.length, changed[last] + CONTEXT + 1);
    let aLine = 1,
      bLine = 1;
    for (let i = 0; i < from; i++) {
      if (ops[i].kind !== "+") aLine++;
      if (ops[i].kind !== "-") bLine++;
    }
    const hunk = ops.slice(from, to);
    const aCount = hunk.filter((o) => o.kind !== "+").length,
      bCount = hunk.filter((o) => o.kind !== "-").length;
    out.push(`@@ -${range(aLine, aCount)} +${range(bLine, bCount)} @@`, ...hunk.map((o) => o.kind + o.line));
    k = last + 1;
  }
  return out.join("\n");
}
