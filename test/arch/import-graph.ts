import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative, sep } from "node:path";

/** One import: the importing file and the file it names, both relative to the repository root. */
export interface ImportEdge {
  from: string;
  to: string;
  /** `import type` / `export type`: erased from the JavaScript, so it loads nothing at run time. */
  typeOnly?: true;
}

/** A boundary: imports from files `from` matches into files `to` matches are forbidden. */
export interface Rule {
  why: string;
  from: (file: string) => boolean;
  to: (target: string) => boolean;
}

// `import x from "y"`, `import type { x } from "y"`, `export { x } from "y"`, `import "y"`, `import("y")`.
const SPECIFIER = /\bfrom\s*["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']/g;
// The statements TypeScript erases. `import { type x }` is not one of them: under verbatimModuleSyntax
// (tsconfig.base.json) it is kept as `import {} from "y"`, which still loads the module.
const TYPE_ONLY = /\b(?:import|export)\s+type\s+(?:\{[^}]*\}|\*(?:\s+as\s+[\w$]+)?|[\w$]+)\s*from\s*["'][^"']+["']/g;

/** The relative specifiers a module names, resolved against its own folder; packages are left out. */
export function importsOf(file: string, source: string): ImportEdge[] {
  const typeOnlyEnds = new Set([...source.matchAll(TYPE_ONLY)].map((m) => m.index + m[0].length));
  const edges: ImportEdge[] = [];
  for (const m of source.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2];
    if (!spec.startsWith(".")) continue;
    const to = posix.normalize(posix.join(posix.dirname(file), spec));
    edges.push(typeOnlyEnds.has(m.index + m[0].length) ? { from: file, to, typeOnly: true } : { from: file, to });
  }
  return edges;
}

/**
 * The loops of files that import one another's values, each as the files it goes through, in order
 * and back to the first (`a -> b -> a`). Type-only imports are left out (they load nothing); static
 * and dynamic imports both count: a loop through a lazy import still ties the two files together.
 */
export function valueCycles(edges: readonly ImportEdge[]): string[] {
  const next = new Map<string, string[]>();
  for (const e of edges) if (!e.typeOnly && e.from !== e.to) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  // Tarjan's strongly connected components, iteratively (a deep import chain would overflow the stack).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[] = [];
  for (const root of next.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ file: string; i: number }> = [{ file: root, i: 0 }];
    index.set(root, index.size);
    low.set(root, index.get(root)!);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const top = work[work.length - 1];
      const to = (next.get(top.file) ?? [])[top.i++];
      if (to !== undefined) {
        if (!index.has(to)) {
          index.set(to, index.size);
          low.set(to, index.get(to)!);
          stack.push(to);
          onStack.add(to);
          work.push({ file: to, i: 0 });
        } else if (onStack.has(to)) low.set(top.file, Math.min(low.get(top.file)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(top.file)!));
      if (low.get(top.file) !== index.get(top.file)) continue;
      const component = new Set<string>();
      let f: string;
      do {
        f = stack.pop()!;
        onStack.delete(f);
        component.add(f);
      } while (f !== top.file);
      if (component.size > 1) loops.push(loopThrough(top.file, component, next));
    }
  }
  return loops;
}

/** One loop inside a strongly connected component, from `start` back to it (breadth-first: the shortest). */
function loopThrough(start: string, component: ReadonlySet<string>, next: ReadonlyMap<string, string[]>): string {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const file = queue.shift()!;
    for (const to of next.get(file) ?? []) {
      if (!component.has(to)) continue;
      if (to === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0])!);
        return [...path, start].join(" -> ");
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, file);
        queue.push(to);
      }
    }
  }
  return [...component].join(" -> ");
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
