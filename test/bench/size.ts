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
 * The owner's console (issue 15) is its own app: its first load (console.js, the chunks it imports
 * statically, console.css) has a budget of 60 KB gz; each page is a lazy chunk on top.
 *
 * History: the spine's streamed chat was 29.2 KB gz against a 30 KB budget. The agent loop,
 * router, advice cards, reasoning, stage actions, embeds, theming and accessibility grew the core to
 * 43.6 KB; moving marked, the tool runtime and the stage actions into lazy chunks brought it back
 * under 30 KB. The emergency guard's card (issue 13) and the
 * stylesheets adopted for strict CSPs took the first reply to 40.6 KB and the path with tools to
 * 52.2 KB. Rating replies (issue 14) adds 0.65 KB to the core (as a lazy chunk it cost 1.1 KB, 0.84
 * of it gzip's per-file overhead): the budgets from the first reply on grew by 2 KB, with tools by 3.
 * Issue 18 asks for at most 32 KB to the first reply and 45 KB with stages (GOAL, printed, not
 * enforced): marked's lexer (12.6 KB gz with the mapping to elements) gave way to streaming-markdown
 * (3.8 KB), but the core had grown to 29.4 KB by then, so the budgets follow what ships, with about
 * 0.5 KB of room, until the core shrinks (the tool runtime grew 0.5 KB more after that). Every path is
 * still under half of the smallest peer measured here
 * (deep-chat, 110.6 KB gz).
 * Issue 18 (widget part): the stage panel's and trace view's rules and the stage panel's strings moved
 * into their chunks; copy, rating, reasoning and advice cards (with their rules and strings) into one
 * chunk of their own (reply-extras), loaded as the first message is sent: the first reply went from
 * 33.55 to 31.85 KB (32.35 with photos' 0.55 KB in the core) and the budgets below follow it. The paths
 * with tools and stages count that chunk (it was in the core before); code and rules compressed in
 * separate streams cost them about 1.4 KB (with stages 49.9 -> 51.3 KB): that is why their budgets went
 * up. The 45 KB goal with stages was out of reach while the tool runtime carried
 * zod/mini (about 7 KB gz of its 10.5).
 * Then (issue 18) no zod ships to the browser: the tools' arguments are checked against JSON schemas the
 * build derives from the zod ones (scripts/tool-schemas-plugin.ts), and the tool runtime went from 10.75
 * to 3.97 KB; a turn's tool glue moved into it from the core, and the reasoning, copy/rating and emergency
 * card rules and the emergency card from the core into the reply-extras chunk (the first reply -0.64 KB,
 * the path after it +0.2 KB: rules in a stream of their own). The paths with tools, stages and photos
 * dropped by about 6.7 KB and their budgets follow them down, with about 0.3 KB of room.
 * Then the widget's Chinese strings became a chunk of their own (i18n/zh-cn.ts), fetched by mount() before
 * the panel draws for a Chinese visitor only: every visitor loads one language. English visitors' first
 * reply went from 33.08 to 31.99 KB; a Chinese visitor's is 33.13 (the chunk's 1.14 KB, 0.05 of it the
 * file's own gzip overhead), over the 32 KB goal by as much as before.
 * Then the tool names left shared/protocol.ts for a file of their own (shared/tool-names.ts): only the
 * tool runtime reads them, and the core carried the whole table because it imports protocol.ts for the
 * event names. The first reply went from 32.06 to 31.93 KB (the core 28.30 -> 28.16); the core and first
 * reply budgets follow them down. Then the advice and trace step events' constructors went the same way
 * (shared/step-events.ts: the core folds those events but only the tool runtime makes them): 31.86 KB.
 * Then every visitor loads exactly one language (issue 18): the English strings became a chunk too
 * (i18n/strings.ts, 0.8 KB; 0.85 KB of the core), counted on every English path below; the strings only a
 * finished reply shows left both: English into reply-extras, Chinese a chunk of its own that reply-extras
 * fetches (i18n/reply-zh-cn.ts); some Chinese texts got shorter. The first reply in Chinese went from 33.00
 * to 31.99 KB, in English 31.86 -> 31.87 KB, the core 28.09 -> 27.30; with stages 44.77 -> 45.06 KB (the
 * English strings in a file of their own). Then the error texts took their codes' names (`err_<code>`), so the
 * core lost its table from codes to texts: the first reply 31.78 KB, in Chinese 31.92, with stages 44.98.
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
  /** Agents that take photos (issue #17): re-encoding, upload, consent, thumbnails; loaded on first use. */
  photos: "parley-chunk-photo-kit-",
  /** The session's live channel (issue #16): other tabs, staff, missed ends; loaded after the first reply. */
  live: "parley-chunk-live-sync-",
  /** Takeover's visitor side (issue #16): the bar, the contact form, a person's messages; its steps. */
  takeover: "parley-chunk-takeover-",
  /** The widget's English strings (issue 18): loaded before the panel draws, by all other visitors. */
  en: "parley-chunk-strings-",
  /** The widget's Chinese strings (issue 18): loaded before the panel draws, by Chinese visitors only. */
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
  // What ships (issue 18) plus about 0.3 KB: the first reply has no room for more. Photos (issue
  // #17) add 0.55 KB gz to the core, and so to every path: the hooks a visitor meets before the photo
  // kit loads (the composer's photo slot, thumbnails in bubbles and advice cards, photo references in
  // the history, raw upload bodies); the kit itself, with its rules, is a lazy chunk (3.3 KB).
  // Then resumable replies (issue #16) add 0.3 KB gz to the core, and so to every path: the chat
  // response read as text (a reply goes on from the live channel after a break), Stop sent to the
  // worker, a restored page following its reply. The reattachment itself is a lazy chunk (follow,
  // 0.9 KB) fetched as each reply starts, so it is there when the network is not. The paths after
  // the core grew by 0.1 KB for it (the core had the room). The console's "try it" (issue #15) adds
  // 0.01 KB: the session open's `draft` flag, passed from the embed page's options to the request.
  // Takeover (issue #16) adds 0.3 KB to the core, and so to every path: the shared reducer folds who
  // handles the conversation (agent or a named person), the request for a person and contacts left;
  // a widget must fold every event of its session's log, whoever wrote it, to agree with the worker.
  // The agent loop's resume (issue #16) adds 0.07 KB to the core (a restored page asks the tool runtime
  // whether a turn stopped between steps; the loop takes a stored step) and 0.5 KB to the tool runtime,
  // so to the paths with tools: finding that step, answering calls from the log, recording results.
  // The widget's live channel (issue #16: other tabs, staff, missed ends) adds 0.2 KB gz more to the
  // core and so to every path: where the page stands in the session's log (the last sequence number
  // taken from the worker, the ids of events it folded itself), starting and ending the channel, Stop
  // handed to it, a reply shown from its stored copy once the log has it. The channel itself is a lazy
  // chunk (live-sync, about 1.9 KB) loaded after the first reply, counted on the path after it.
  // Takeover's visitor side (issue #16) adds 0.44 KB gz to the core, and so to every path: a person's
  // messages and joins placed in the transcript (and the reducer's list of joins and hand backs that
  // places them after a reload), the composer sending to the person instead of the model (and a turn
  // refused or cut by their joining is no error), the two places its chunk draws. The core and first
  // reply budgets had that room (measured against main at the rebase: 28.84 -> 29.28, 32.60 -> 33.04);
  // the paths after them grew by it, and the path after the first reply by the live channel's chunk's
  // share too (takeover-actions, 0.33 KB: the visitor's message to a person). The bar, strings, contact
  // form and steps are lazy chunks (takeover, takeover-actions: 3.3 KB), loaded only where the site
  // enables takeover or a person took part; counted on their own path below.
  // Down from 29.48 and 33.25 (issue 18): the Chinese strings are a chunk of their own, loaded by Chinese
  // visitors only (-1.1 KB for everyone else); a Chinese visitor's first reply has its own budget.
  // Then down 0.1 KB each: the tool names are the tool runtime's (see History).
  // Then down 0.95 KB, 0.1 KB and 1.25 KB: each language's strings are a chunk of their own, and the
  // error texts are named by their codes (see History).
  // The visitor's consent and own data take 0.24 KB gz of that room in the core (and so on every path): the
  // reducer folds `consent.given`, a refusal's notice is kept for the panel (a message waits for it), the
  // version agreed is remembered for the next conversation, the "Your data" pill. The notice, download and
  // delete are a lazy chunk (privacy-kit, 2.7 KB; path below); the routes only chunks call live in a module
  // of their own, so the core does not carry them. An open conversation is asked a new version by the
  // worker's refusal of its next message, not by a check of its own in the core (35 B).
  // Booking in the chat (the store runs the slots card's tool itself) and keep nothing (a page carries
  // its conversation into a new one once the worker erased the old) take 0.44 KB gz together, in the
  // core and so on every path to the first reply: the budgets follow what ships, with about 0.1 KB room.
  // The store declared as slices, one file each (widget/state/*-slice.ts), costs 0.1 KB of it: what the
  // slices share crosses between functions by name, where one closure shared it by (mangled) local names.
  core: 28.05 * 1024,
  firstReply: 32.65 * 1024,
  firstReplyZh: 32.8 * 1024,
  // + 0.1 KB: rules and the emergency card moved from the core into the reply-extras chunk (see History);
  // + 0.85 KB: takeover (see above).
  afterReply: 38.1 * 1024,
  // Down from 46.85, 52.23 and 50.16: no zod in the tool runtime (see History); then + 0.2 KB takeover.
  withTools: 40.7 * 1024,
  withStages: 46.1 * 1024,
  /** The derm consult: tools and the photo kit (issue #17). */
  withPhotos: 44.05 * 1024,
  /** A site that hands chats to its staff: ask_for_person brings the tool runtime, then takeover's chunks. */
  withTakeover: 45.85 * 1024,
  /** An agent that asks consent: the notice before the first message (the privacy chunk), then the reply. */
  withConsent: 35.4 * 1024,
};
/** Issue 18's goals for the visitor's paths. */
const GOAL = { firstReply: 32 * 1024, withStages: 45 * 1024 };
/** Peer for scale (TOOLCHAIN.md): deep-chat's embed bundle, gzip. */
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
  console.log(`issue 18 goals: ${goals.join("; ")}`);
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
