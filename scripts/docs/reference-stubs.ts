// The API reference's pages as files in the repository, so a guide's link to one (`reference/visitor.md`)
// opens on GitHub as on the docs site. Each committed page is a stub: its title and where its content comes
// from in front matter (GitHub shows it as a table), then an include of the page rendered from the contract
// at build (docs/.vitepress/reference-parts/, not committed). So the stubs change only when a page is added,
// renamed or removed, never when a route's schema does.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ReferencePage } from "./reference-pages.ts";

/** Where the committed stubs live: docs/reference/<slug>.md. */
export const REFERENCE_DIR = fileURLToPath(new URL("../../docs/reference", import.meta.url));
/** Where the build writes each page's rendered content, which its stub includes. */
export const PARTS_DIR = fileURLToPath(new URL("../../docs/.vitepress/reference-parts", import.meta.url));

/** Where the page's content comes from, for a reader on GitHub (a folded YAML string, in lines). */
const SOURCE = [
  "Rendered from the API contract (docs/openapi.json, which npm run build writes) when the docs site is",
  "built: read it there, with npm run docs, or at GET /v1/openapi.json of any worker.",
];

/** A page's committed stub. */
export function stubOf(page: Pick<ReferencePage, "slug" | "title">): string {
  return [
    "---",
    `title: ${JSON.stringify(page.title)}`,
    "source: >-",
    ...SOURCE.map((line) => `  ${line}`),
    "---",
    "",
    `<!--@include: ../.vitepress/reference-parts/${page.slug}.md-->`,
    "",
  ].join("\n");
}

export interface StubProblem {
  file: string;
  problem: "missing" | "out of date" | "no such page";
}

/** Stubs that are missing, differ from {@link stubOf}, or stand for a page the contract no longer has. */
export function stubProblems(pages: readonly ReferencePage[], dir = REFERENCE_DIR): StubProblem[] {
  const wanted = new Map(pages.map((p) => [`${p.slug}.md`, stubOf(p)]));
  const problems: StubProblem[] = [];
  for (const [file, stub] of wanted) {
    const path = join(dir, file);
    if (!existsSync(path)) problems.push({ file, problem: "missing" });
    else if (readFileSync(path, "utf8") !== stub) problems.push({ file, problem: "out of date" });
  }
  const present = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".md") && f !== "README.md") : [];
  for (const file of present) if (!wanted.has(file)) problems.push({ file, problem: "no such page" });
  return problems;
}

/** Writes each page's rendered content where its stub includes it, and nothing else there. */
export function writeParts(pages: readonly ReferencePage[], dir = PARTS_DIR): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const p of pages) writeFileSync(join(dir, `${p.slug}.md`), p.markdown);
}

/** Writes the stubs the pages need and removes those of pages gone (`npm run docs:stubs`). */
export function writeStubs(pages: readonly ReferencePage[], dir = REFERENCE_DIR): StubProblem[] {
  const problems = stubProblems(pages, dir);
  for (const { file, problem } of problems) {
    if (problem === "no such page") rmSync(join(dir, file));
    else writeFileSync(join(dir, file), stubOf(pages.find((p) => `${p.slug}.md` === file)!));
  }
  return problems;
}
