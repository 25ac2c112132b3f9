import type { Span } from "../../shared/admin/desk-records.ts";
import { t } from "../i18n.ts";

const S = { failed: { en: "failed", "zh-CN": "失败" } };

/**
 * A run's trace as nested lists: run, loops, each agent's steps (A edits strategies, B guidance,
 * C reviews with its score), completions and tools, the gate; each with its ms and attributes.
 * Model text in attributes is shown as text, never as markup.
 */
export function SpanTree({ span }: { span: Span }) {
  const attrs = Object.entries(span.attrs).filter(([, v]) => v !== null && v !== "");
  return (
    <li>
      <span class={span.ok ? "span" : "span error"}>
        <strong>{span.name}</strong> <span class="muted">({span.kind})</span> {span.ms} ms
        {!span.ok && ` · ${t(S.failed)}`}
      </span>
      {attrs.length > 0 && (
        <span class="attrs">
          {" "}
          {attrs.map(([k, v]) => (
            <span key={k} class="attr">
              {k}={String(v)}{" "}
            </span>
          ))}
        </span>
      )}
      {span.children.length > 0 && (
        <ul>
          {span.children.map((c, i) => (
            <SpanTree key={i} span={c} />
          ))}
        </ul>
      )}
    </li>
  );
}
