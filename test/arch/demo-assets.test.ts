import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./import-graph.ts";

/**
 * The demo site must not be served by a deployed worker: wrangler.toml's `run_worker_first` sends its
 * files to the worker, which serves them in demo mode only (worker/routes/demo-pages.ts), while the
 * widget's and the console's files stay plain static assets. Routed as Cloudflare's asset router
 * routes: `*` is any run of characters, `/` included; a `!` rule's match goes to the assets, found or
 * not; else a rule's match goes to the worker; else the asset if there is one, the worker if not.
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
const route = (path: string) => (matches(path, true) ? "assets" : matches(path, false) ? "worker" : "asset if any");

/** Every file the demo site ships (widget/demo, vite's public dir) but the assets' own header rules. */
const demoFiles = readdirSync(join(root, "widget/demo")).filter((f) => f !== "_headers");

describe("wrangler.toml's routing of the static assets", () => {
  it.each(demoFiles)("sends the demo's /%s to the worker first (served in demo mode only)", (file) => {
    expect(route(`/${file}`)).toBe("worker");
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
  ])("serves the widget's and the console's %s as a static asset", (file) => {
    expect(route(file)).not.toBe("worker");
  });

  it.each(["/console", "/console/insights", "/console/conversations/0f1e2d"])(
    "lets the console's page address %s reach the worker (no file is there)",
    (path) => {
      expect(route(path)).not.toBe("assets");
    },
  );
});
