/**
 * A small BM25 index for tenant documents in Chinese and English. English is split into
 * lower-cased words with a light plural strip; Chinese has no spaces, so runs of CJK characters
 * become overlapping bigrams (the usual trick of search engines without a dictionary).
 */
const STOP = new Set(
  (
    "a an and are as at be by can do does for from how i in is " +
    "it its my of on or should the this to what when which with " +
    "you your"
  ).split(" "),
);

export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const run of text.toLowerCase().match(/[\u3400-\u9fff]+|[a-z0-9]+/g) ?? []) {
    if (/^[a-z0-9]/.test(run)) {
      if (STOP.has(run)) continue;
      out.push(run.length > 3 && run.endsWith("s") && !run.endsWith("ss") ? run.slice(0, -1) : run);
    } else if (run.length === 1) {
      out.push(run);
    } else {
      for (let i = 0; i < run.length - 1; i++) out.push(run.slice(i, i + 2));
    }
  }
  return out;
}

export interface IndexedDoc {
  id: string;
  title: string;
  text: string;
}

export class TextIndex<D extends IndexedDoc> {
  private readonly tf: Array<Map<string, number>>;
  private readonly df = new Map<string, number>();
  private readonly lengths: number[];
  private readonly avgLength: number;

  constructor(private readonly docs: readonly D[]) {
    this.tf = docs.map((d) => {
      const counts = new Map<string, number>();
      // The title counts twice: it says what the passage is about.
      for (const t of [...tokens(d.title), ...tokens(d.title), ...tokens(d.text)])
        counts.set(t, (counts.get(t) ?? 0) + 1);
      for (const t of counts.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      return counts;
    });
    this.lengths = this.tf.map((m) => [...m.values()].reduce((a, b) => a + b, 0));
    this.avgLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, docs.length);
  }

  search(query: string, topK = 3): Array<D & { score: number }> {
    const q = [...new Set(tokens(query))];
    const n = this.docs.length;
    const k1 = 1.2;
    const b = 0.75;
    return this.docs
      .map((doc, i) => {
        let score = 0;
        for (const t of q) {
          const f = this.tf[i].get(t);
          if (!f) continue;
          const df = this.df.get(t) ?? 0;
          const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
          score += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * this.lengths[i]) / this.avgLength));
        }
        return { ...doc, score: Math.round(score * 1000) / 1000 };
      })
      .filter((d) => d.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, topK);
  }
}
