import { lazyComponent } from "./lazy.tsx";

/** Until the markdown chunk arrives, the text shows as what it is: plain paragraphs, never HTML. */
export function PlainText({ text }: { text: string }) {
  return (
    <div class="md">
      {text.split(/\n{2,}/).map((p, i) => (
        <p key={i}>{p}</p>
      ))}
    </div>
  );
}

/**
 * Assistant text as markdown. marked's lexer is the widget's largest dependency, so it is a chunk of
 * its own, kept off the path to a first paint of the panel; the panel preloads it when it opens,
 * so a reply rarely shows in plain text first, and then only until the chunk arrives.
 */
export const LazyMarkdown = lazyComponent(() => import("./markdown.tsx").then((m) => m.Markdown), PlainText);
