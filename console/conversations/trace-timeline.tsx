import type { SessionState } from "../../shared/session/session.ts";
import { t } from "../i18n.ts";

const S = {
  title: { en: "Trace", "zh-CN": "执行轨迹" },
  none: { en: "No steps recorded.", "zh-CN": "没有记录的步骤。" },
  step: { en: "Step", "zh-CN": "步骤" },
  start: { en: "Starts at", "zh-CN": "开始于" },
  took: { en: "Took", "zh-CN": "耗时" },
  first: { en: "First byte", "zh-CN": "首字节" },
  tokens: { en: "Tokens", "zh-CN": "令牌" },
  result: { en: "Result", "zh-CN": "结果" },
  ok: { en: "ok", "zh-CN": "成功" },
  failed: { en: "failed", "zh-CN": "失败" },
};

const num = (v: unknown) => (typeof v === "number" ? v : null);
const ms = (v: number | null) => (v === null ? "" : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${Math.round(v)} ms`);

/**
 * The session's steps on one time axis: each a row with its start (from the first step), a bar for
 * its duration, its model or tool, first byte, tokens and outcome. The bars are drawn in SVG by
 * attributes (the page's policy refuses style attributes); the numbers are in the table's cells.
 */
export function TraceTimeline({ trace }: { trace: SessionState["trace"] }) {
  if (!trace.length) return <p>{t(S.none)}</p>;
  const steps = [...trace].sort((a, b) => a.at - b.at);
  const t0 = steps[0].at;
  const end = Math.max(...steps.map((s) => s.at + (s.ms ?? 0)));
  const span = Math.max(1, end - t0);
  return (
    <table class="trace">
      <caption>{t(S.title)}</caption>
      <thead>
        <tr>
          <th scope="col">{t(S.step)}</th>
          <th scope="col">{t(S.start)}</th>
          <th scope="col">{t(S.took)}</th>
          <th scope="col">{t(S.first)}</th>
          <th scope="col">{t(S.tokens)}</th>
          <th scope="col">{t(S.result)}</th>
        </tr>
      </thead>
      <tbody>
        {steps.map((s) => {
          const d = s.detail ?? {};
          const tokens = (num(d.promptTokens) ?? 0) + (num(d.completionTokens) ?? 0);
          const x = ((s.at - t0) / span) * 100;
          const w = Math.max(0.8, ((s.ms ?? 0) / span) * 100);
          return (
            <tr key={s.id} class={s.ok ? "" : "failed"}>
              <th scope="row">
                <span class="kind">{s.kind}</span> {s.name ?? ""}
                {d.purpose ? <span class="muted"> · {String(d.purpose)}</span> : null}
              </th>
              <td>+{ms(s.at - t0)}</td>
              <td class="bar-cell">
                <svg viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true" class="bar">
                  <rect x={x} y="1" width={Math.min(w, 100 - x)} height="6" class={s.ok ? "ok" : "bad"} />
                </svg>
                {ms(s.ms ?? null)}
              </td>
              <td>{ms(num(d.firstByteMs))}</td>
              <td>{tokens || ""}</td>
              <td>
                {s.ok ? t(S.ok) : `${t(S.failed)}${d.error ? `: ${String(d.error)}` : ""}`}
                {/* The provider's own words on a failure: the owner's only, the visitor saw a generic text. */}
                {d.providerMessage ? <div class="muted">{String(d.providerMessage)}</div> : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
