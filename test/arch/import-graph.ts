import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative, sep } from "node:path";

/** One import: the importing file and the file it names, both relative to the repository root. */
export interface ImportEdge {
  from: string;
  to: string;
}

/** A boundary: imports from files `from` matches into files `to` matches are forbidden. */
export interface Rule {
  why: string;
  from: (file: string) => boolean;
  to: (target: string) => boolean;
}

// `import x from "y"`, `import type { x } from "y"`, `export { x } from "y"`, `import "y"`, `import("y")`.
const SPECIFIER = /\bfrom\s*["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']/g;

/** The relative specifiers a module names, resolved against its own folder; packages are left out. */
export function importsOf(file: string, source: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const m of source.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2];
    if (!spec.startsWith(".")) continue;
    edges.push({ from: file, to: posix.normalize(posix.join(posix.dirname(file), spec)) });
  }
  return edges;
}

export function violations(edges: readonly ImportEdge[], rules: readonly Rule[]): string[] {
  return rules.flatMap((rule) =>
    edges.filter((e) => rule.from(e.from) && rule.to(e.to)).map((e) => `${e.from} -> ${e.to}: ${rule.why}`),
  );
}

const SKIP = new Set(["node_modules", "dist", ".wrangler", "test-results", ".git"]);

/** Every TypeScript and JavaScript module under `dirs` (repository-relative, forward slashes). */
export function sourceFiles(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|tsx|mts|js|mjs)$/.test(entry.name)) out.push(relative(root, path).split(sep).join("/"));
    }
  };
  for (const d of dirs) walk(join(root, d));
  return out;
}

export function importGraph(root: string, dirs: readonly string[]): ImportEdge[] {
  return sourceFiles(root, dirs).flatMap((f) => importsOf(f, readFileSync(join(root, f), "utf8")));
}

export const repoRoot = (here: string) => join(dirname(here), "..", "..");
