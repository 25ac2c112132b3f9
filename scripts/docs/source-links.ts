// Links in the Markdown files as GitHub shows them: a link from docs/*.md (or the README) must lead to a file
// the repository has, since GitHub resolves it against the repository and not against the built docs site.
// A page only the site has (a generated one, docs/openapi.json) is a 404 there. `/x` is the repository's
// root on GitHub but the docs' root on the site, and `x` without `.md` exists on the site only: both are
// reported too. A link's `#heading` is checked on the built site (check-links.ts), whose slugs are GitHub's.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { posix } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface SourceLinkProblem {
  /** The Markdown file, relative to the repository's root. */
  file: string;
  line: number;
  href: string;
}

// Inline links and images `[text](target "title")`, reference definitions `[id]: target`, and HTML attributes.
const INLINE = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g;
const DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/;
const ATTRIBUTE = /\s(?:href|src)="([^"]*)"/g;

/** The file's lines with front matter, fenced code and code spans blanked: what is not a link stays out. */
function linkableLines(text: string): string[] {
  const lines = text.split("\n");
  let fence: string | null = null;
  let frontMatter = lines[0] === "---";
  return lines.map((line, i) => {
    if (frontMatter) {
      if (i > 0 && line === "---") frontMatter = false;
      return "";
    }
    const opens = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (opens && opens[1][0] === fence[0] && opens[1].length >= fence.length) fence = null;
      return "";
    }
    if (opens) {
      fence = opens[1];
      return "";
    }
    return line.replace(/(`+)[^`]*?\1/g, "");
  });
}

/** The targets a Markdown text links to, with their lines; outside addresses and `#heading`s left out. */
export function linksOf(text: string): { line: number; href: string }[] {
  return linkableLines(text).flatMap((line, i) => {
    const definition = DEFINITION.exec(line);
    const hrefs = [
      ...[...line.matchAll(INLINE)].map((m) => m[1]),
      ...[...line.matchAll(ATTRIBUTE)].map((m) => m[1]),
      ...(definition ? [definition[1]] : []),
    ];
    return hrefs
      .filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith("//") && !href.startsWith("#"))
      .map((href) => ({ line: i + 1, href }));
  });
}

/** The file (or folder) a link leads to on GitHub, relative to the repository's root. */
export function targetOf(file: string, href: string): string {
  const path = decodeURIComponent(href.split("#")[0].split("?")[0]);
  const joined = path.startsWith("/") ? path.slice(1) : posix.join(posix.dirname(file), path);
  return posix.normalize(joined).replace(/\/$/, "");
}

/** Links in `files` whose target is neither one of `tracked` nor a folder holding one. */
export function sourceLinkProblems(files: Record<string, string>, tracked: readonly string[]): SourceLinkProblem[] {
  const present = new Set(tracked);
  for (const f of tracked) for (let d = posix.dirname(f); d !== "."; d = posix.dirname(d)) present.add(d);
  return Object.entries(files).flatMap(([file, text]) =>
    linksOf(text)
      .filter(({ href }) => !present.has(targetOf(file, href)))
      .map(({ line, href }) => ({ file, line, href })),
  );
}

/**
 * The repository's files as a commit would hold them (tracked, or new and not ignored): a generated file the
 * repository ignores, such as docs/openapi.json, is not one.
 */
export function repositoryFiles(root: string): string[] {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: root });
  return out.toString("utf8").split("\0").filter(Boolean);
}

/** Every dead link of the docs' Markdown files and the README, as GitHub resolves them. */
export function docsSourceLinkProblems(root = REPO_ROOT): SourceLinkProblem[] {
  const tracked = repositoryFiles(root);
  const markdown = tracked.filter((f) => f === "README.md" || (f.startsWith("docs/") && f.endsWith(".md")));
  const files = Object.fromEntries(markdown.map((f) => [f, readFileSync(posix.join(root, f), "utf8")]));
  return sourceLinkProblems(files, tracked);
}
