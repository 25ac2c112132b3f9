import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { deadLinks } from "../../scripts/docs/check-links.ts";
import { githubSlug } from "../../scripts/docs/github-slug.ts";

const site = mkdtempSync(join(tmpdir(), "parley-docs-links-"));
afterAll(() => rmSync(site, { recursive: true, force: true }));

function page(path: string, body: string) {
  mkdirSync(join(site, path, ".."), { recursive: true });
  writeFileSync(join(site, path), `<!doctype html><html><body>${body}</body></html>`);
}

describe("dead links in the built docs", () => {
  it("names links to a missing page or a missing heading, and only those", () => {
    page(
      "embed.html",
      [
        '<h2 id="theming">Theming</h2>',
        '<a href="#theming">here</a>',
        '<a class="x" href="/deploy.html#by-hand">ok</a>',
        '<a href="/deploy.html#by-foot">no heading</a>',
        '<a href="./missing.html">no page</a>',
        '<a href="/reference/">reference</a>',
        '<a href="/reference/visitor.html#postSessions">operation</a>',
        '<a href="/reference/visitor.html#postSession">no operation</a>',
        '<a href="/console/sign-in.png">a picture</a>',
        '<a href="https://example.com/#nowhere">outside</a>',
        '<a href="mailto:owner@example.com">mail</a>',
      ].join(""),
    );
    page("deploy.html", '<h2 id="by-hand">By hand</h2><a href="embed.html#theming">back</a>');
    page("reference/index.html", '<a href="./visitor.html#postSessions">op</a>');
    page("reference/visitor.html", '<h2 id="postSessions">POST /v1/sessions</h2><a href="../quickstart.html">q</a>');
    writeFileSync(join(site, "404.html"), "");
    mkdirSync(join(site, "console"), { recursive: true });
    writeFileSync(join(site, "console", "sign-in.png"), "");

    expect(deadLinks(site)).toEqual([
      { page: "embed.html", href: "/deploy.html#by-foot", reason: "no such heading" },
      { page: "embed.html", href: "./missing.html", reason: "no such page" },
      { page: "embed.html", href: "/reference/visitor.html#postSession", reason: "no such heading" },
      { page: "reference/visitor.html", href: "../quickstart.html", reason: "no such page" },
    ]);
  });
});

describe("heading anchors as GitHub makes them", () => {
  it.each([
    ["Script tag (clinic and sales websites)", "script-tag-clinic-and-sales-websites"],
    [
      "How the limits are counted at scale (and how far they can overshoot)",
      "how-the-limits-are-counted-at-scale-and-how-far-they-can-overshoot",
    ],
    ["Prompts: versions, labels, history", "prompts-versions-labels-history"],
    ["Emergencies — measured", "emergencies--measured"],
    ["The visitor's right to erasure", "the-visitors-right-to-erasure"],
    ["npm run deploy_all", "npm-run-deploy_all"],
    ["隐私 与 安全", "隐私-与-安全"],
  ])("%s", (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });
});
