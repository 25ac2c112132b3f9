import { defineConfig, type Plugin } from "vite";
import preact from "@preact/preset-vite";
import { readFileSync } from "node:fs";
import { browserslistToTargets, transform as transformCss } from "lightningcss";
import { toolSchemasPlugin } from "./scripts/tool-schemas-plugin.ts";

/**
 * The oldest browsers the widget's CSS is written for: those its JavaScript runs in (ES2022, `.at()`,
 * structuredClone). The palette is written once with light-dark() (widget/ui/styles.css), which these
 * lack: lightningcss writes it out as two custom properties that the theme's color-scheme switches.
 */
const CSS_BROWSERS = ["chrome 98", "edge 98", "firefox 94", "safari 15.4", "ios_saf 15.4"];

/**
 * Emits dist/public/parley.css: the loader's, the widget's and its lazy chunks' rules (the files they import
 * inline), minified. Only browsers without constructable stylesheets use it, when the host gave no
 * nonce: a <link> to it is what `style-src <worker>` allows (widget/embed/adopt-css.ts).
 */
function fallbackStylesheet(): Plugin {
  return {
    name: "parley:fallback-stylesheet",
    generateBundle() {
      const css = [
        "widget/embed/loader.css",
        "widget/ui/styles.css",
        "widget/ui/stage-panel.css",
        "widget/ui/trace-view.css",
        "widget/photos/photo-kit.css",
        "widget/ui/advice.css",
        "widget/ui/reasoning.css",
        "widget/ui/reply-actions.css",
        "widget/ui/escalation-card.css",
        "widget/ui/takeover.css",
        "widget/privacy/privacy.css",
      ]
        .map((f) => readFileSync(f, "utf8"))
        .join("\n");
      const targets = browserslistToTargets(CSS_BROWSERS);
      const { code } = transformCss({ filename: "parley.css", code: Buffer.from(css), minify: true, targets });
      this.emitFile({ type: "asset", fileName: "parley.css", source: code });
    },
  };
}

/**
 * Three builds into dist/public (served by the worker as static assets), one into dist/npm:
 * - default mode: the widget, an ES module `parley-widget.js` the loader imports on demand,
 *   plus the demo site (widget/demo is the public dir);
 * - `--mode loader`: `parley.js`, the tiny IIFE loader for the script tag;
 * - `--mode frame`: `parley-frame.js`, the iframe embed page's bridge (it imports the widget by URL);
 * - `--mode console`: the owner's console (console/), `console/console.js` and `.css` with its pages'
 *   chunks beside them; the worker serves its page at /console (worker/routes/console.ts);
 * - `--mode lib`: the npm package's ES module (dist/npm/index.js; declarations by tsconfig.npm.json).
 *   Preact and signals stay external: a Preact host must share one copy for the component to work.
 */
const ENTRIES = {
  loader: {
    entry: "widget/embed/loader.ts",
    formats: ["iife" as const],
    name: "ParleyLoader",
    fileName: () => "parley.js",
  },
  frame: { entry: "widget/embed/frame.ts", formats: ["es" as const], fileName: () => "parley-frame.js" },
  lib: { entry: "widget/index.ts", formats: ["es" as const], fileName: () => "index.js" },
  widget: { entry: "widget/embed/mount.ts", formats: ["es" as const], fileName: () => "parley-widget.js" },
  console: {
    entry: "console/main.tsx",
    formats: ["es" as const],
    fileName: () => "console/console.js",
    cssFileName: "console/console",
  },
};

export default defineConfig(({ mode }) => {
  const npm = mode === "lib";
  const widget = !(mode in ENTRIES);
  const consoleApp = mode === "console";
  const lib = widget ? ENTRIES.widget : ENTRIES[mode as keyof typeof ENTRIES];
  return {
    // No pure-marking of shared/: a zod schema's top-level call is kept wherever its module is
    // imported, so schemas sit in modules of their own (session-events.ts, field-value.ts...) that
    // the widget imports only where it validates with them.
    // The tool runtime checks arguments against JSON schemas derived from the zod ones at build time.
    plugins: [
      preact({ devToolsEnabled: false, prefreshEnabled: false }),
      toolSchemasPlugin(),
      ...(widget ? [fallbackStylesheet()] : []),
    ],
    publicDir: widget ? "widget/demo" : false,
    build: {
      outDir: npm ? "dist/npm" : "dist/public",
      emptyOutDir: widget || npm,
      target: "es2022",
      // Vite names CSS targets as esbuild does ("safari15.4", "ios15.4").
      cssTarget: CSS_BROWSERS.map((b) => b.replace("ios_saf", "ios").replace(" ", "")),
      sourcemap: false,
      copyPublicDir: widget,
      lib,
      rolldownOptions: {
        external: npm ? [/^preact($|\/)/, /^@preact\/signals($|\/)/] : [],
        // Vite's library mode keeps an entry's exports exactly as written ("strict"), so every module
        // the entry shares with a lazy chunk (Preact itself, the transport...) went into a chunk of its
        // own, and each of those is one more request and gzip stream on the way to a first paint. The
        // widget bundle's entry is only ever imported by our loader, so extra exports there cost nothing;
        // the npm package keeps its public surface exact.
        preserveEntrySignatures: widget || consoleApp ? "allow-extension" : "strict",
        // streaming-markdown checks its own invariants with console.assert, which logs only when one
        // breaks; dropping the calls saves their messages' bytes (the bundler's documented option).
        treeshake: { manualPureFunctions: ["console.assert"] },
        // Library mode keeps whitespace and /* @__PURE__ */ marks in ES output by default; this
        // bundle is shipped as is, not bundled again, so neither is worth its bytes.
        // "parley-chunk-": widget/demo/_headers gives these (hashed) files CORS and a long cache by
        // that prefix; without it a page on another origin cannot load the widget's chunks.
        output: {
          chunkFileNames: consoleApp ? "console/[name]-[hash].js" : "parley-chunk-[name]-[hash].js",
          minify: true,
          comments: { legal: true, annotation: false, jsdoc: false },
        },
      },
    },
  };
});
