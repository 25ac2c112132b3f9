import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./import-graph.ts";

/**
 * The demo site must not be served by a deployed worker: wrangler.toml's `run_worker_first` sends its
 * files to the worker, which serves them in demo mode only (worker/routes/demo-pages.ts), while the
 * widget's and the console's files stay plain static assets. Matched as Cloudflare's asset router
 * matches them: `*` is any run of characters, `/` included, and a `!` rule wins over the others.
 */
const root = repoRoot(fileURLToPath(import.meta.url));
const toml = readFileSync(join(root, "wrangler.toml"), "utf8");
const rules = JSON.parse(/^run_worker_first\s*=\s*(\[.*\])\s*$/m.exec(toml)![1]) as string[];
const glob = (rule: string) =>
  new RegExp(
    `^${rule
      .split("*")
      .map((p) => p.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&"))
      .join(".*")}$`,
  );
const matches = (path: string, negative: boolean) =>
  rules.filter((r) => r.startsWith("!") === negative).some((r) => glob(negative ? r.slice(1) : r).test(path));
const toWorker = (path: string) => !matches(path, true) && matches(path, false);

/** Every file the demo site ships (widget/demo, vite's public dir) but the assets' own header rules. */
const demoFiles = readdirSync(join(root, "widget/demo")).filter((f) => f !== "_headers");

describe("the demo's files reach a deployed worker's visitors only through the worker (demo mode)", () => {
  it.each(demoFiles)("/%s goes to the worker first", (file) => {
    expect(toWorker(`/${file}`)).toBe(true);
  });

  it.each([
    "/parley.js",
    "/parley-widget.js",
    "/parley-frame.js",
    "/parley.css",
    "/parley-chunk-markdown-Dmnt-pvV.js",
    "/console/console.js",
    "/console/console.css",
    "/console/page-live-AbC123.js",
  ])("the widget's and the console's %s stay static assets", (file) => {
    expect(toWorker(file)).toBe(false);
  });
});
