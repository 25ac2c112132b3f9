import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

/**
 * Bundle budget (preact/signals' compressed-size habit): the loader is what every page visit
 * pays, the widget what a visitor pays on opening the panel (its core file plus the chunks it
 * loads lazily: the tool schemas). Run after `npm run build`.
 *
 * The widget budget was 30 KB gz for the spine (streamed chat: 29.2 KB). The agent loop, router,
 * text-ReAct parser, advice cards and zod/mini tool validation add about 14 KB; the budget is
 * 45 KB for all of it, still under half of the smallest peer measured here (deep-chat, 110.6 KB).
 */
const DIR = "dist/public";
const LOADER = "parley.js";
const WIDGET = "parley-widget.js";
const BUDGET = { loader: 2048, widget: 45 * 1024 };
/** Peer for scale (TOOLCHAIN.md): deep-chat's embed bundle, gzip. */
const DEEP_CHAT_GZ = 110.6 * 1024;

interface Row { file: string; raw: number; gz: number }

function measure(file: string): Row {
  const buf = readFileSync(join(DIR, file));
  return { file, raw: buf.length, gz: gzipSync(buf, { level: 9 }).length };
}

const kb = (n: number) => (n / 1024).toFixed(2);

function main(): number {
  const missing = [LOADER, WIDGET].filter((f) => !existsSync(join(DIR, f)));
  if (missing.length) {
    console.error(`bench:size: missing ${missing.map((f) => join(DIR, f)).join(", ")} — run npm run build first`);
    return 1;
  }
  const chunks = readdirSync(DIR, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".js") && f !== LOADER && f !== WIDGET)
    .sort();
  const loader = measure(LOADER);
  const widgetRows = [WIDGET, ...chunks].map(measure);
  const widget = { raw: widgetRows.reduce((n, r) => n + r.raw, 0), gz: widgetRows.reduce((n, r) => n + r.gz, 0) };

  const line = (name: string, raw: number, gz: number, budget = "") =>
    `${name.padEnd(40)} ${raw.toString().padStart(9)} ${gz.toString().padStart(9)} ${budget.padStart(9)}`;
  console.log(`${"file".padEnd(40)} ${"raw (B)".padStart(9)} ${"gz (B)".padStart(9)} ${"budget".padStart(9)}`);
  console.log(line(`${LOADER} (loader)`, loader.raw, loader.gz, String(BUDGET.loader)));
  for (const r of widgetRows) console.log(line(r.file, r.raw, r.gz));
  console.log(line("widget total (incl. chunks)", widget.raw, widget.gz, String(BUDGET.widget)));
  console.log("(gz: node zlib level 9, each file on its own; chunks = every other .js in dist/public)");

  const broken: string[] = [];
  if (loader.gz > BUDGET.loader) broken.push(`loader ${loader.gz} B gz > ${BUDGET.loader}`);
  if (widget.gz > BUDGET.widget) broken.push(`widget ${widget.gz} B gz > ${BUDGET.widget}`);
  if (broken.length) console.log(`BUDGET BROKEN: ${broken.join("; ")}`);
  console.log(
    `loader ${kb(loader.gz)} KB gz (budget ${kb(BUDGET.loader)}) | widget ${kb(widget.gz)} KB gz (budget ${kb(BUDGET.widget)}) | ` +
      `vs deep-chat 110.6 KB gz: ${(widget.gz / DEEP_CHAT_GZ).toFixed(2)}x${broken.length ? " | FAIL" : " | ok"}`,
  );
  return broken.length ? 1 : 0;
}

process.exitCode = main();
