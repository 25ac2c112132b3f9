import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importGraph, importsOf, repoRoot, sourceFiles, valueCycles, violations, type Rule } from "./import-graph.ts";

const under =
  (...dirs: string[]) =>
  (file: string) =>
    dirs.some((d) => file.startsWith(`${d}/`));
const DEMO_ENTRY = "worker/demo/index.ts";

/** The layers' boundaries (docs/architecture.md); each names why it holds. */
export const RULES: Rule[] = [
  { why: "the widget never imports the worker, not even types", from: under("widget"), to: under("worker") },
  { why: "the worker never imports the widget", from: under("worker"), to: under("widget") },
  {
    why: "shared/ is the contract: it imports no side",
    from: under("shared"),
    to: under("widget", "worker", "console"),
  },
  {
    why: "the console is a third client: it imports shared/ only, never the widget or the worker",
    from: under("console"),
    to: under("widget", "worker"),
  },
  {
    why: "the widget and the worker never import the console (its code never ships in their bundles)",
    from: under("widget", "worker"),
    to: under("console"),
  },
  {
    why: "tools, sessions, the model call and the chat pipeline never import routes",
    from: under("worker/tools", "worker/session", "worker/llm", "worker/chat"),
    to: under("worker/routes"),
  },
  {
    why: "the demo is wired in at the entry point only (llm/, tools/, config/, middleware/ and the rest ask env.demo)",
    from: (f) => f.startsWith("worker/") && f !== "worker/index.ts" && !f.startsWith("worker/demo/"),
    to: under("worker/demo"),
  },
  {
    why: "tests, benchmarks and scripts reach demo presets and fixtures only through the demo module's public entry",
    from: under("test", "scripts"),
    to: (t) => t.startsWith("worker/demo/") && t !== DEMO_ENTRY,
  },
  {
    why: "test helpers are for tests only",
    from: under("widget", "worker", "shared", "console", "scripts"),
    to: under("test"),
  },
];

const root = repoRoot(fileURLToPath(import.meta.url));

describe("architecture: forbidden imports", () => {
  it("finds the modules of every side (the check is not running on an empty tree)", () => {
    const files = sourceFiles(root, ["widget", "worker", "shared", "console", "test", "scripts"]);
    for (const d of ["widget/", "worker/", "shared/", "console/", "test/", "worker/demo/"]) {
      expect(
        files.some((f) => f.startsWith(d)),
        d,
      ).toBe(true);
    }
    // Specifiers resolve to the files they name: the entry point's one demo import is seen.
    expect(importGraph(root, ["worker"])).toContainEqual({ from: "worker/index.ts", to: DEMO_ENTRY });
  });

  it("has no import across a boundary", () => {
    // This folder's own samples (below) are strings, not imports.
    const edges = importGraph(root, ["widget", "worker", "shared", "console", "test", "scripts"]).filter(
      (e) => !e.from.startsWith("test/arch/"),
    );
    expect(violations(edges, RULES)).toEqual([]);
  });

  it("would catch each kind of crossing, type-only and dynamic imports included", () => {
    const samples: Array<[string, string]> = [
      ["widget/state/x.ts", 'import type { Env } from "../../worker/env.ts";'],
      ["worker/routes/x.ts", 'export { mount } from "../../widget/index.ts";'],
      ["shared/x.ts", 'const m = await import("../worker/app.ts");'],
      ["worker/tools/x.ts", 'import { chatRoutes } from "../routes/chat.ts";'],
      ["worker/llm/x.ts", 'import { demoHooks } from "../demo/hooks.ts";'],
      ["worker/config/x.ts", 'import { PRESET_SITES } from "../demo/index.ts";'],
      ["test/widget/x.test.ts", 'import { demoSite } from "../../worker/demo/presets/demo-site.ts";'],
      ["worker/app.ts", 'import { startFakeUpstream } from "../test/helpers/fake-upstream.ts";'],
      ["console/pages/x.tsx", 'import { Markdown } from "../../widget/ui/markdown.tsx";'],
      ["console/api.ts", 'import type { Env } from "../worker/env.ts";'],
      ["widget/ui/x.tsx", 'const p = await import("../../console/pages.ts");'],
      ["worker/routes/x.ts", 'import { PAGES } from "../../console/pages.ts";'],
      ["shared/x.ts", 'import { api } from "../console/api.ts";'],
    ];
    for (const [file, source] of samples) {
      expect(violations(importsOf(file, source), RULES), `${file}: ${source}`).toHaveLength(1);
    }
    const allowed = importsOf("test/widget/x.test.ts", 'import { PRESET_AGENTS } from "../../worker/demo/index.ts";');
    const entry = importsOf("worker/index.ts", 'import { withDemo } from "./demo/index.ts";');
    const consoleShared = importsOf("console/api.ts", 'import * as ROUTES from "../shared/wire/routes.ts";');
    expect(violations([...allowed, ...entry, ...consoleShared], RULES)).toEqual([]);
  });
});

describe("architecture: no value-import cycle between files", () => {
  const SIDES = ["widget", "worker", "shared", "console", "test", "scripts"];

  it("has none: the files of each side load in one order (type-only imports excepted)", () => {
    const edges = importGraph(root, SIDES);
    // The check reads the real tree: its value imports, and the type-only ones it leaves out.
    expect(edges.filter((e) => !e.typeOnly).length).toBeGreaterThan(1000);
    expect(edges.some((e) => e.typeOnly)).toBe(true);
    expect(valueCycles(edges)).toEqual([]);
  });

  it("would catch a loop of two or more files, through a lazy import too, but not through a type-only import", () => {
    const graph = (files: Record<string, string>) =>
      Object.entries(files).flatMap(([file, source]) => importsOf(file, source));
    expect(
      valueCycles(
        graph({
          "widget/photos/kit.tsx": 'import { PanelStore } from "../ui/slots.tsx";',
          "widget/ui/slots.tsx": 'const kit = () => import("../photos/kit.tsx");',
        }),
      ),
    ).toEqual(["widget/photos/kit.tsx -> widget/ui/slots.tsx -> widget/photos/kit.tsx"]);
    expect(
      valueCycles(
        graph({
          "worker/a.ts": 'import { b } from "./b.ts";',
          "worker/b.ts": 'export { c } from "./c.ts";',
          "worker/c.ts": 'import "./a.ts";',
        }),
      ),
    ).toEqual(["worker/a.ts -> worker/b.ts -> worker/c.ts -> worker/a.ts"]);
    // TypeScript keeps `import { type x }` as `import {} from` (verbatimModuleSyntax): it still loads the module.
    expect(
      valueCycles(
        graph({
          "worker/env.ts": 'import { type Room } from "./room.ts";',
          "worker/room.ts": 'import type { Env } from "./env.ts";\nimport { LIMIT } from "./env.ts";',
        }),
      ),
    ).toHaveLength(1);
    expect(
      valueCycles(
        graph({
          "worker/env.ts": 'import type { Room } from "./room.ts";\nexport type { Other } from "./room.ts";',
          "worker/room.ts": 'import type { Env } from "./env.ts";\nimport { LIMIT } from "./limits.ts";',
          "worker/limits.ts": 'import type * as Env from "./env.ts";',
        }),
      ),
    ).toEqual([]);
  });
});

describe("architecture: shared/ in folders", () => {
  const files = sourceFiles(root, ["shared"]);
  /** The route table is walked as one namespace (`import * as ROUTES`): the privacy routes are part of it. */
  const PUBLIC_REEXPORTS = new Set(["shared/wire/routes.ts"]);

  it("keeps each module in a folder that says what it holds (wire/, session/, chat/...), one level deep", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter((f) => f.split("/").length !== 3)).toEqual([]);
  });

  it("re-exports no other module's names: an importer names the module that owns them", () => {
    const reexport = /^export\s+(?:type\s+)?(?:\*|\{[^}]*\})\s*from\s/m;
    expect(files.filter((f) => !PUBLIC_REEXPORTS.has(f) && reexport.test(readFileSync(join(root, f), "utf8")))).toEqual(
      [],
    );
    expect(reexport.test(readFileSync(join(root, "shared/wire/routes.ts"), "utf8"))).toBe(true);
  });
});
