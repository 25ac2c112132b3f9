import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

/**
 * Bundle budget (preact/signals' compressed-size habit), by what each visitor pays:
 * - the loader, on every page visit;
 * - on opening the panel, the widget's core: parley-widget.js and the chunks it imports statically.
 *   This is what stands between the click and a usable panel, so it has the tightest budget;
 * - the markdown renderer (streaming-markdown), for the first reply of any agent: a lazy chunk the panel
 *   starts loading as it opens, while the session is being created (text shows plain until then);
 * - what a reply shows besides its text (copy and rating, the model's working, advice cards): a lazy chunk
 *   that loads as the first message is sent, alongside the first reply, which does not wait for it;
 * - the session's live channel (other tabs, staff, a reply's missed end): a lazy chunk loaded after the
 *   first reply or as a stored session is restored, counted on the path after the first reply;
 * - then only what their agent uses, loaded as soon as its config says so: the tool runtime (agents
 *   with tools, a router or stages: the tools' input checks, tool execution, the router) and the stage panel
 *   (stage workflows, when first shown, with its own rules and strings).
 * Each path includes the ones above it. Run after `npm run build`.
 * The owner's console is its own app: its first load (console.js, the chunks it imports statically,
 * console.css) has a budget of 60 KB gz; each page is a lazy chunk on top.
 *
 * The budgets follow what ships, with a little room (0.1 to 0.4 KB gz), so that growth is a decision:
 * a change that breaks one makes room (a lazy chunk, a smaller core) or raises the budget in the same
 * commit, saying why. The goals (GOAL) are where the paths should be; they are printed, not enforced.
 * Every path stays under half of the smallest peer measured (DEEP_CHAT_GZ).
 */
const DIR = "dist/public";
const LOADER = "parley.js";
const WIDGET = "parley-widget.js";
/** The iframe embed page's bridge: paid instead of the loader by visitors of a framed widget. */
const FRAME = "parley-frame.js";
const LAZY = {
  markdown: "parley-chunk-markdown-",
  replyActions: "parley-chunk-reply-extras-",
  tools: "parley-chunk-tool-runtime-",
  stages: "parley-chunk-stage-panel-",
  /** The protocol designer's calculator, loaded on its first use: counted with the stage workflows. */
  calculator: "parley-chunk-sample-size-math-",
  /** Agents that take photos: re-encoding, upload, consent, thumbnails; loaded on first use. */
  photos: "parley-chunk-photo-kit-",
  /** The session's live channel: other tabs, staff, missed ends; loaded after the first reply. */
  live: "parley-chunk-live-sync-",
  /** Takeover's visitor side: the bar, the contact form, a person's messages; its steps. */
  takeover: "parley-chunk-takeover-",
  /** The widget's English strings: loaded before the panel draws, by all other visitors. */
  en: "parley-chunk-strings-",
  /** The widget's Chinese strings: loaded before the panel draws, by Chinese visitors only. */
  zh: "parley-chunk-zh-cn-",
  /** The consent notice (agents that ask one, before the first message) and the visitor's data panel. */
  privacy: "parley-chunk-privacy-kit-",
};
/** The owner's console: its own folder, never part of the widget's paths. */
const CONSOLE_DIR = "console";
const CONSOLE = ["console.js", "console.css"];
const BUDGET = {
  console: 60 * 1024,
  loader: 2048,
  frame: 2048,
  // The core is what every visitor pays before the panel is usable, whatever the agent: besides the chat, the
  // hooks of features whose code is lazy. A widget folds every event of its session's log (whoever wrote it:
  // takeover, consent, booking) to agree with the worker, reads a reply as text so it can go on after a break,
  // knows where it stands in the log for the live channel, and keeps a photo slot and photo references; the
  // features themselves (photo kit, live channel, takeover, privacy, tools, stages) are chunks loaded only
  // where an agent or a site uses them, and counted on their paths below.
  core: 28.1 * 1024,
  firstReply: 32.7 * 1024,
  firstReplyZh: 32.85 * 1024,
  // After the first reply: copy, rating, the model's working and advice cards (reply-extras), and the live
  // channel with takeover's message sender.
  afterReply: 38.1 * 1024,
  withTools: 40.7 * 1024,
  withStages: 46.1 * 1024,
  /** The derm consult: tools and the photo kit. */
  withPhotos: 44.1 * 1024,
  /** A site that hands chats to its staff: ask_for_person brings the tool runtime, then takeover's chunks. */
  withTakeover: 45.85 * 1024,
  /** An agent that asks consent: the notice before the first message (the privacy chunk), then the reply. */
  withConsent: 35.4 * 1024,
};
/** Where the visitor's paths should be: the first reply, and a stage workflow's, within these. */
const GOAL = { firstReply: 32 * 1024, withStages: 45 * 1024 };
/** The smallest peer measured, for scale: deep-chat's embed bundle, gzip (docs/benchmarks.md). */
const DEEP_CHAT_GZ = 110.6 * 1024;

interface Row {
  file: string;
  raw: number;
  gz: number;
}

function measure(file: string): Row {
  const buf = readFileSync(join(DIR, file));
  return { file, raw: buf.length, gz: gzipSync(buf, { level: 9 }).length };
}

const kb = (n: number) => (n / 1024).toFixed(2);

/** The chunks a file imports statically (`from"./x.js"` / `import"./x.js"` in the minified output), transitively. */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = readFileSync(join(DIR, file), "utf8");
  // Relative to the importing file's folder (the console's chunks import each other inside console/).
  const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
  for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) staticClosure(dir + m[1], seen);
  return seen;
}

function main(): number {
  const consoleEntry = CONSOLE.map((f) => `${CONSOLE_DIR}/${f}`);
  const missing = [LOADER, WIDGET, FRAME, ...consoleEntry].filter((f) => !existsSync(join(DIR, f)));
  if (missing.length) {
    console.error(`bench:size: missing ${missing.map((f) => join(DIR, f)).join(", ")} — run npm run build first`);
    return 1;
  }
  const all = readdirSync(DIR, { encoding: "utf8" })
    .filter((f) => f.endsWith(".js") && f !== LOADER && f !== FRAME)
    .sort();
  const coreFiles = staticClosure(WIDGET);
  const lazyOf = (prefix: string) =>
    all
      .filter((f) => f.startsWith(prefix))
      .flatMap((f) => [...staticClosure(f)])
      .filter((f) => !coreFiles.has(f));
  const sum = (files: Iterable<string>) =>
    [...new Set(files)].map(measure).reduce((n, r) => ({ raw: n.raw + r.raw, gz: n.gz + r.gz }), { raw: 0, gz: 0 });
  const loader = measure(LOADER);
  const frame = measure(FRAME);
  const core = sum(coreFiles);
  // Every path below is an English visitor's: the core, English strings, the markdown renderer (the
  // first reply), then what the path loads.
  const english = (...prefixes: string[]) =>
    sum([...coreFiles, ...[LAZY.en, LAZY.markdown, ...prefixes].flatMap(lazyOf)]);
  const firstReply = english();
  const firstReplyZh = sum([...coreFiles, ...lazyOf(LAZY.zh), ...lazyOf(LAZY.markdown)]);
  // The live channel loads after the first reply for every agent; counted here, where it lands, and
  // not on the agent-specific paths below (what those agents need before their first reply).
  const afterReply = english(LAZY.replyActions, LAZY.live);
  const withTools = english(LAZY.replyActions, LAZY.tools);
  const withStages = english(LAZY.replyActions, LAZY.tools, LAZY.stages, LAZY.calculator);
  // The derm consult's path: tools, then the photo kit on the composer's first render.
  const withPhotos = english(LAZY.replyActions, LAZY.tools, LAZY.photos);
  // A takeover site's path: its agents have a tool (ask_for_person), so the tool runtime; the panel
  // loads takeover's chunks with the config, and the live channel comes after the first reply.
  const withTakeover = english(LAZY.replyActions, LAZY.live, LAZY.tools, LAZY.takeover);
  // A site that asks consent: the notice's chunk loads as the panel opens, before the first reply.
  const withConsent = english(LAZY.privacy);
  const everything = sum(all);
  const consoleFirst = sum([...staticClosure(consoleEntry[0]), consoleEntry[1]]);

  const line = (name: string, raw: number, gz: number, budget = "") =>
    `${name.padEnd(52)} ${raw.toString().padStart(9)} ${gz.toString().padStart(9)} ${budget.padStart(9)}`;
  console.log(
    `${"file or visitor path".padEnd(52)} ${"raw (B)".padStart(9)} ${"gz (B)".padStart(9)} ${"budget".padStart(9)}`,
  );
  for (const f of all) {
    const r = measure(f);
    console.log(line(`${f}${coreFiles.has(f) ? " (core)" : " (lazy)"}`, r.raw, r.gz));
  }
  console.log(line(`${LOADER}: every page`, loader.raw, loader.gz, String(BUDGET.loader)));
  console.log(line(`${FRAME}: iframe embed page`, frame.raw, frame.gz, String(BUDGET.frame)));
  console.log(line("panel core: any agent", core.raw, core.gz, String(BUDGET.core)));
  console.log(line("+ markdown: the first reply, any agent", firstReply.raw, firstReply.gz, String(BUDGET.firstReply)));
  console.log(
    line("  + Chinese strings: the same in Chinese", firstReplyZh.raw, firstReplyZh.gz, String(BUDGET.firstReplyZh)),
  );
  console.log(
    line(
      "+ copy, rating, advice, live channel: 1st reply on",
      afterReply.raw,
      afterReply.gz,
      String(BUDGET.afterReply),
    ),
  );
  console.log(line("+ tool runtime: agents with tools", withTools.raw, withTools.gz, String(BUDGET.withTools)));
  console.log(line("+ stage panel: stage workflows", withStages.raw, withStages.gz, String(BUDGET.withStages)));
  console.log(line("+ photo kit: agents that take photos", withPhotos.raw, withPhotos.gz, String(BUDGET.withPhotos)));
  console.log(
    line("+ takeover: sites that hand chats to staff", withTakeover.raw, withTakeover.gz, String(BUDGET.withTakeover)),
  );
  console.log(
    line("+ consent notice: agents that ask consent", withConsent.raw, withConsent.gz, String(BUDGET.withConsent)),
  );
  console.log(line("every widget chunk", everything.raw, everything.gz));
  console.log(
    line("console: first load (app shell, sign-in, CSS)", consoleFirst.raw, consoleFirst.gz, String(BUDGET.console)),
  );
  console.log("(gz: node zlib level 9, each file on its own)");

  const broken: string[] = [];
  const check = (name: string, gz: number, budget: number) =>
    gz > budget && broken.push(`${name} ${gz} B gz > ${budget}`);
  check("loader", loader.gz, BUDGET.loader);
  check("iframe bridge", frame.gz, BUDGET.frame);
  check("panel core", core.gz, BUDGET.core);
  check("first reply", firstReply.gz, BUDGET.firstReply);
  check("first reply in Chinese", firstReplyZh.gz, BUDGET.firstReplyZh);
  check("after the first reply", afterReply.gz, BUDGET.afterReply);
  check("with tools", withTools.gz, BUDGET.withTools);
  check("with stages", withStages.gz, BUDGET.withStages);
  check("with photos", withPhotos.gz, BUDGET.withPhotos);
  check("with takeover", withTakeover.gz, BUDGET.withTakeover);
  check("with consent", withConsent.gz, BUDGET.withConsent);
  check("console first load", consoleFirst.gz, BUDGET.console);
  if (broken.length) console.log(`BUDGET BROKEN: ${broken.join("; ")}`);
  const goal = (name: string, gz: number, g: number) =>
    `${name} ${kb(gz)} KB (goal ${kb(g)}${gz > g ? `, ${kb(gz - g)} over` : ""})`;
  const goals = [
    goal("first reply", firstReply.gz, GOAL.firstReply),
    goal("in Chinese", firstReplyZh.gz, GOAL.firstReply),
    goal("with stages", withStages.gz, GOAL.withStages),
  ];
  console.log(`goals: ${goals.join("; ")}`);
  console.log(
    `loader ${kb(loader.gz)} KB gz (budget ${kb(BUDGET.loader)}) | iframe ` +
      `bridge ${kb(frame.gz)} | panel core ${kb(core.gz)} (${kb(BUDGET.core)}) | ` +
      `first reply ${kb(firstReply.gz)} (${kb(BUDGET.firstReply)}) | ` +
      `after it ${kb(afterReply.gz)} (${kb(BUDGET.afterReply)}) | ` +
      (`with tools ${kb(withTools.gz)} (${kb(BUDGET.withTools)}) | with ` +
        `stages ${kb(withStages.gz)} (${kb(BUDGET.withStages)}) | `) +
      `console ${kb(consoleFirst.gz)} (${kb(BUDGET.console)}) | ` +
      `vs deep-chat 110.6 KB gz: ${(withStages.gz / DEEP_CHAT_GZ).toFixed(2)}x${broken.length ? " | FAIL" : " | ok"}`,
  );
  return broken.length ? 1 : 0;
}

process.exitCode = main();
