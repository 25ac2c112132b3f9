import type { ReasoningStep } from "../state/transcript.ts";
import CSS from "./reasoning.css?inline";
import { addChunkCss } from "./chunk-css.ts";
import { useReplyExtrasStrings, type ReplyExtrasStrings } from "./reply-extras-strings.ts";

addChunkCss(CSS);

const TOOL_LABEL: Record<string, keyof ReplyExtrasStrings> = {
  knowledge_search: "toolKnowledge",
  web_search: "toolWeb",
};

/** The model's working, collapsed under its reply: thoughts and the tools it used. */
export function Reasoning({ steps, locale, live }: { steps: ReasoningStep[]; locale: string; live: boolean }) {
  const strings = useReplyExtrasStrings(locale);
  if (!steps.length || !strings) return null;
  return (
    <details class="reasoning">
      <summary>
        {strings.reasoning} ({steps.length})
      </summary>
      <ol>
        {steps.map((st) => (
          <li key={st.id} class={st.kind}>
            {st.kind === "thought" ? (
              st.text
            ) : (
              <>
                <b>{strings[TOOL_LABEL[st.tool ?? ""] ?? "toolOther"]}</b>
                {st.text && <q>{st.text}</q>}
                {st.outcome === undefined ? (
                  live && <span class="mut"> {strings.toolRunning}</span>
                ) : (
                  <span class="mut" title={st.outcome}>
                    {" "}
                    ✓
                  </span>
                )}
              </>
            )}
          </li>
        ))}
      </ol>
    </details>
  );
}
