// Citations of the project's own issues in the source: a reader cannot open them, and one number can stand for
// two features, so a comment or a test's title names the feature instead. The same for the seed documents
// ("seed 003"): they are not in the repository, so the feature's name (the strategy desk) stands there.
// Another project's public thread (`chatwoot#11681`, `vitejs/vite#123`, a github.com/<owner>/<repo>/issues/<n>
// address) can be opened: it stays.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

export interface Citation {
  file: string;
  line: number;
  text: string;
}

/** "issue 16", "Issue #16", "issues 13", wherever they are: a comment, a test's title, a string. */
const ISSUE_WORD = /\bissues?[ \t]*#?[ \t]*\d/i;
/** "seed 003", "Seed 001's", "seeds 001 and 003": the seed documents, which are not in the repository. */
const SEED_WORD = /\bseeds?[ \t]*0\d\d\b/i;
/** A bare `#16` with no project before it (`chatwoot#16`, `&#39;` and `"#39"` are something else). */
const BARE_NUMBER = /(?<![\w/.&'"`#-])#\d{1,5}(?![\w-])/;

/** A line's comment: the whole line when it opens or continues one, else what follows a trailing `// `. */
function commentOf(line: string): string | null {
  const text = line.trimStart();
  if (/^(\/\/|\/\*|\*|#)/.test(text)) return text;
  const trailing = /\s\/\/\s(.*)$/.exec(line);
  return trailing ? trailing[1] : null;
}

/** Every line of `source` that cites one of the project's issues or seed documents. */
export function issueCitations(file: string, source: string): Citation[] {
  return source.split("\n").flatMap((text, i) => {
    const comment = commentOf(text);
    const cites = ISSUE_WORD.test(text) || SEED_WORD.test(text) || (comment !== null && BARE_NUMBER.test(comment));
    return cites ? [{ file, line: i + 1, text: text.trim() }] : [];
  });
}

const SKIP = new Set(["node_modules", "dist", ".wrangler", "test-results", ".git"]);
/** Code, styles, the demo pages and their headers file: everything a comment can sit in. */
const TEXT = /\.(ts|tsx|mts|js|mjs|css|html|json)$|^_headers$/;

/** The text files under `dirs`, repository-relative with forward slashes. */
export function textFiles(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (TEXT.test(entry.name)) out.push(relative(root, path).split(sep).join("/"));
    }
  };
  for (const d of dirs) walk(join(root, d));
  return out;
}

export function treeCitations(root: string, dirs: readonly string[]): Citation[] {
  return textFiles(root, dirs).flatMap((f) => issueCitations(f, readFileSync(join(root, f), "utf8")));
}
