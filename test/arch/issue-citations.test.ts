import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./import-graph.ts";
import { issueCitations, textFiles, treeCitations } from "./issue-citations.ts";

const root = repoRoot(fileURLToPath(import.meta.url));
const SIDES = ["worker", "widget", "console", "shared", "test", "scripts"];

describe("comments name features, not the project's issues or seed documents", () => {
  it("finds no citation of an issue or a seed in worker/, widget/, console/, shared/, test/ or scripts/", () => {
    const files = textFiles(root, SIDES);
    // The check reads the real tree, styles and the demo pages' headers file included.
    expect(files.length).toBeGreaterThan(500);
    for (const f of ["widget/ui/takeover.css", "widget/demo/_headers", "shared/wire/protocol.ts"])
      expect(files).toContain(f);
    // This folder's own samples (below) are the one place such citations are written on purpose.
    const found = treeCitations(root, SIDES).filter((c) => !c.file.startsWith("test/arch/"));
    expect(found.map((c) => `${c.file}:${c.line}: ${c.text}`)).toEqual([]);
  });

  it("would catch each way of citing one: the word, a bare number, in code, styles, headers and test titles", () => {
    const samples: Array<[string, string]> = [
      ["worker/routes/takeover.ts", " * Takeover, the visitor's side (issue #16), with the session's token"],
      ["widget/ui/markdown.tsx", " * Streaming (issue 18): a reply is parsed once, chunk by chunk."],
      ["shared/guard-config.ts", "/** Which guards an agent runs (Issue #13); the medical presets turn both on. */"],
      ["widget/ui/takeover.css", "/* Takeover (issues 16 and 17): shipped in takeover's chunk. */"],
      ["widget/demo/_headers", "# The demo pages' own policy (#20): nothing inline"],
      ["worker/llm/upstream-body.ts", "  const offered = enabled; // offered whatever the agent lists (#16)"],
      ["console/pages/live.tsx", " * join, write and hand back (see #16)."],
      ["test/e2e/csp.test.ts", '  it("script tag under issue 20\'s policy: styled", async () => {'],
      ["worker/strategy/desk-run.ts", "/** Seed 003: at most three edit-and-review loops; 80 or more passes. */"],
      ["worker/routes/admin.ts", " * A site owner's view (seeds 001 and 003): the site's sessions, newest first"],
      ["widget/agent/router.ts", "  /** Start retrieval at once, or only after (seed004 as written). */"],
      [
        "shared/tools/record-advice.ts",
        " * only way advice is made: no keyword matching of prose, seed 000); ask_followup",
      ],
    ];
    for (const [file, line] of samples) expect(issueCitations(file, line), `${file}: ${line}`).toHaveLength(1);
  });

  it("leaves other projects' public threads and look-alikes alone", () => {
    const lines = [
      " * Stale-while-revalidate with a hard bound (langfuse#7736 and langfuse#10138: an old prompt for ever).",
      "  /** chatwoot#10101 asks for a configurable limit; see also vitejs/vite#123. */",
      " * (github.com/calcom/cal.com/issues/13397), so two confirmations of one slot at once could both",
      "    const issue = parsed.error.issues[0];",
      "  throw validationFailed(parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })));",
      'const ENTITIES = { amp: "&", "#39": "\'" }; // &#39; is an apostrophe',
      "/* The pressed pill: white on #54898c is 3.93:1, under AA. */",
      "  #count = 0;",
      " * The strategy desk's own prompts, seeded as version 1 into every site's registry.",
      "const seed = 0x2f; // the generator's seed 7 gives the same failures on every run",
    ];
    expect(lines.flatMap((line) => issueCitations("worker/x.ts", line))).toEqual([]);
  });
});
