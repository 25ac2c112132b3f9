#!/usr/bin/env node
// `npm run test:mutations [name...]`: proves the suite still bites. Each mutation is a careless edit to a
// rule that keeps visitors safe; the named test files must pass on the tree as it is and fail under the
// edit. Exits non-zero when a mutation survives (no test fails) or no longer applies to the source.
// The edited file is written back after each run, on Ctrl-C and on SIGTERM too.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

/** Each: one search/replace in one file, and the test files (by vitest project) that must catch it. */
const MUTATIONS = [
  {
    name: "session-ownership",
    why: "a session token acts on its own session only",
    file: "worker/middleware/own-session.ts",
    search:
      '    if (c.req.param("id") !== claims.sid)\n' +
      '      throw new ApiError(403, "forbidden", "This session token belongs to another session");\n',
    replace: "",
    tests: { worker: ["test/worker/sessions.test.ts", "test/worker/tenants.test.ts"] },
  },
  {
    name: "javascript-links",
    why: "a model's markdown links only to http(s)",
    file: "widget/ui/markdown.tsx",
    search: "      return link(safeHref(n.attrs[HREF]), kids(n));",
    replace: "      return link(n.attrs[HREF] ?? null, kids(n));",
    tests: { unit: ["test/widget/markdown.test.ts"] },
  },
  {
    name: "chinese-emergency",
    why: "the emergency guard reads Chinese",
    file: "worker/guard/emergency-guard.ts",
    search: "  const hasZh = CJK.test(text);\n",
    replace: "  const hasZh = CJK.test(text);\n  if (hasZh) return { emergency: false };\n",
    tests: { worker: ["test/worker/guard/emergency-guard.test.ts", "test/worker/guard.test.ts"] },
  },
];

const picked = process.argv.slice(2);
const unknown = picked.filter((n) => !MUTATIONS.some((m) => m.name === n));
if (unknown.length) fail(`Unknown mutation ${unknown.join(", ")}; known: ${MUTATIONS.map((m) => m.name).join(", ")}`);
const chosen = picked.length ? MUTATIONS.filter((m) => picked.includes(m.name)) : MUTATIONS;

// A file with edits of its own (or a mutation left by a killed run) is not mutated: say so instead.
for (const m of chosen) {
  if (spawnSync("git", ["diff", "--quiet", "HEAD", "--", m.file]).status !== 0)
    fail(`${m.file} differs from HEAD: commit or restore it first (git checkout -- ${m.file})`);
}

const out = mkdtempSync(join(tmpdir(), "parley-mutations-"));
/** The file a mutation has edited and its text before, while it is edited. */
let edited = null;
let child = null;
function restore() {
  if (edited) writeFileSync(edited.file, edited.text);
  edited = null;
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    restore();
    if (child) killGroup(child);
    rmSync(out, { recursive: true, force: true });
    console.error(`\n${signal}: source restored`);
    process.exit(130);
  });
}

try {
  process.exitCode = await run();
} finally {
  restore();
  rmSync(out, { recursive: true, force: true });
}

async function run() {
  // A test that fails anyway would catch every mutation: the named files must pass first.
  for (const [project, files] of Object.entries(byProject(chosen))) {
    const base = await vitest(project, files, join(out, `base-${project}.json`));
    if (base.code !== 0) {
      console.error(`The ${project} files fail without any mutation:\n  ${base.failed.join("\n  ") || base.log}`);
      return 1;
    }
  }
  let survived = 0;
  for (const m of chosen) {
    const text = readFileSync(m.file, "utf8");
    if (text.split(m.search).length !== 2) {
      console.error(`${m.name}: its search text is no longer found once in ${m.file}; update the mutation`);
      survived++;
      continue;
    }
    edited = { file: m.file, text };
    writeFileSync(m.file, text.replace(m.search, m.replace));
    const runs = [];
    try {
      for (const [project, files] of Object.entries(m.tests))
        runs.push(await vitest(project, files, join(out, `${m.name}-${project}.json`)));
    } finally {
      restore();
    }
    const failed = runs.flatMap((r) => r.failed);
    if (failed.length) {
      console.log(`caught   ${m.name} (${m.why}): ${failed.length} failing\n  ${failed.join("\n  ")}`);
      continue;
    }
    // A file that no longer loads under the edit is not a test that caught it.
    const broken = runs.filter((r) => r.code !== 0).map((r) => r.log);
    console.error(`SURVIVED ${m.name} (${m.why}): no test in ${Object.values(m.tests).flat().join(", ")} failed`);
    if (broken.length) console.error(broken.join("\n"));
    survived++;
  }
  return survived ? 1 : 0;
}

function byProject(list) {
  const all = {};
  for (const m of list)
    for (const [project, files] of Object.entries(m.tests))
      all[project] = [...new Set([...(all[project] ?? []), ...files])];
  return all;
}

/** Runs test files of one project; the failing tests' names from vitest's JSON report, not from its exit code. */
function vitest(project, files, report) {
  const args = ["vitest", "run", "--project", project, "--reporter=json", `--outputFile=${report}`, ...files];
  return new Promise((resolve) => {
    let log = "";
    // Its own process group, so a signal here stops workerd and vitest's workers with it.
    child = spawn("npx", args, { stdio: ["ignore", "pipe", "pipe"], detached: true });
    child.stdout.on("data", (d) => (log += d));
    child.stderr.on("data", (d) => (log += d));
    child.on("exit", (code) => {
      child = null;
      let results = [];
      try {
        results = JSON.parse(readFileSync(report, "utf8")).testResults;
      } catch {
        // No report: vitest did not get as far as running the files; its output says why.
      }
      const failed = results.flatMap((f) =>
        f.assertionResults.filter((t) => t.status === "failed").map((t) => `${relative(".", f.name)} > ${t.fullName}`),
      );
      resolve({ code, failed, log: log.slice(-2000) });
    });
  });
}

function killGroup(proc) {
  try {
    process.kill(-proc.pid, "SIGTERM");
  } catch {
    // Already gone.
  }
}

function fail(message) {
  console.error(message);
  process.exit(1);
}
