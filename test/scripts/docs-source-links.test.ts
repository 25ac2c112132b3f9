import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { docsSourceLinkProblems, linksOf, sourceLinkProblems } from "../../scripts/docs/source-links.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("links in docs/*.md as GitHub resolves them", () => {
  it("lead to files the repository has, in every page of docs/ and the README", () => {
    expect(docsSourceLinkProblems(root)).toEqual([]);
  });

  it("names a link to a page only the built site has, an ignored file, a site-root path, a missing picture", () => {
    const tracked = ["README.md", "docs/stages.md", "docs/api.md", "docs/reference/README.md", "docs/console/a.png"];
    const page = [
      "The [context](reference/visitor.md#getSessionContext) and [the contract](api.md#how-it-is-made).",
      "The [document](openapi.json), the [reference](/reference/), the [quickstart](quickstart).",
      '![Sign-in](console/sign-in.png) and <img src="console/a.png"> but <a href="console/b.png">this</a>.',
      "[spec]: ../shared/nowhere.ts",
    ].join("\n");
    expect(sourceLinkProblems({ "docs/stages.md": page }, tracked)).toEqual([
      { file: "docs/stages.md", line: 1, href: "reference/visitor.md#getSessionContext" },
      { file: "docs/stages.md", line: 2, href: "openapi.json" },
      { file: "docs/stages.md", line: 2, href: "/reference/" },
      { file: "docs/stages.md", line: 2, href: "quickstart" },
      { file: "docs/stages.md", line: 3, href: "console/sign-in.png" },
      { file: "docs/stages.md", line: 3, href: "console/b.png" },
      { file: "docs/stages.md", line: 4, href: "../shared/nowhere.ts" },
    ]);
    // The same page once the reference's stub is committed: that link opens on GitHub too.
    const withStub = sourceLinkProblems({ "docs/stages.md": page }, [...tracked, "docs/reference/visitor.md"]);
    expect(withStub.map((p) => p.href)).not.toContain("reference/visitor.md#getSessionContext");
  });

  it("follows folders and the README's docs/ paths, and leaves outside links, headings, code and front matter", () => {
    const tracked = ["README.md", "docs/quickstart.md", "docs/reference/README.md", "docs/reference/index.md"];
    const readme = "Start with the [quickstart](docs/quickstart.md) or [the docs](docs/).";
    const page = [
      "---",
      "actions:",
      "  - link: /nowhere",
      "---",
      "The [reference](reference/), [this](#theming), [Hono](https://hono.dev/docs), [mail](mailto:a@b.c).",
      "In code, `[not](a-link.md)` is text:",
      "```md",
      "[nor](this.md)",
      "```",
      "And [back](../README.md).",
    ].join("\n");
    expect(sourceLinkProblems({ "README.md": readme, "docs/quickstart.md": page }, tracked)).toEqual([]);
    expect(linksOf(page).map((l) => l.href)).toEqual(["reference/", "../README.md"]);
  });
});
