import { t } from "../i18n.ts";

interface Row {
  left?: string;
  right?: string;
  kind: "same" | "changed" | "hunk";
}

/**
 * A unified diff (the registry's) laid out side by side: context on both sides, each run of removed
 * lines beside the added lines that replaced it. Text only, as elements: never markup.
 */
export function sideBySide(diff: string): Row[] {
  const rows: Row[] = [];
  let removed: string[] = [];
  let added: string[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++)
      rows.push({ left: removed[i], right: added[i], kind: "changed" });
    removed = [];
    added = [];
  };
  for (const line of diff.split("\n")) {
    if (line.startsWith("---") || line.startsWith("+++")) continue;
    if (line.startsWith("@@")) {
      flush();
      rows.push({ left: line, right: line, kind: "hunk" });
    } else if (line.startsWith("-")) removed.push(line.slice(1));
    else if (line.startsWith("+")) added.push(line.slice(1));
    else if (line.startsWith(" ")) {
      flush();
      rows.push({ left: line.slice(1), right: line.slice(1), kind: "same" });
    }
  }
  flush();
  return rows;
}

const S = {
  caption: { en: "Version {a} (left) against version {b} (right)", "zh-CN": "版本 {a}(左)与版本 {b}(右)对比" },
  same: { en: "The two versions are the same.", "zh-CN": "两个版本相同。" },
};

export function SideBySide({ diff, from, to }: { diff: string; from: number; to: number }) {
  const rows = sideBySide(diff);
  if (!rows.length) return <p>{t(S.same)}</p>;
  return (
    <table class="diff">
      <caption>{t(S.caption).replace("{a}", String(from)).replace("{b}", String(to))}</caption>
      <thead>
        <tr>
          <th scope="col">v{from}</th>
          <th scope="col">v{to}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i} class={r.kind}>
            <td class={r.kind === "changed" && r.left !== undefined ? "del" : undefined}>{r.left ?? ""}</td>
            <td class={r.kind === "changed" && r.right !== undefined ? "ins" : undefined}>{r.right ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
