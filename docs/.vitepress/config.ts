// The docs site (VitePress): `npm run docs` serves it, `npm run docs:build` builds it into docs/.vitepress/dist.
// A link to a missing page fails the build (VitePress's own check, left on), and so does a link to a missing
// heading (checked on the built pages). The API reference is rendered from docs/openapi.json at build, into
// the committed stubs of docs/reference/ (scripts/docs/reference-stubs.ts).
import { defineConfig, type DefaultTheme, type Plugin } from "vitepress";
import { deadLinks } from "../../scripts/docs/check-links.ts";
import { githubSlug } from "../../scripts/docs/github-slug.ts";
import { OPENAPI_FILE, readOpenApi } from "../../scripts/docs/openapi-source.ts";
import { referencePages } from "../../scripts/docs/reference-pages.ts";
import { stubProblems, writeParts } from "../../scripts/docs/reference-stubs.ts";
import { docsSourceLinkProblems } from "../../scripts/docs/source-links.ts";

const page = (text: string, file: string): DefaultTheme.SidebarItem => ({ text, link: `/${file}` });

const reference = referencePages(readOpenApi());
const stubs = stubProblems(reference);
if (stubs.length) {
  const list = stubs.map((s) => `  docs/reference/${s.file}: ${s.problem}`).join("\n");
  throw new Error(`The API reference's stubs do not match its pages (npm run docs:stubs):\n${list}`);
}
writeParts(reference);

/** Under `npm run docs`, a new contract (`npm run build:openapi`) re-renders the pages its stubs include. */
const referenceParts = (): Plugin => ({
  name: "parley-reference-parts",
  configureServer(server) {
    server.watcher.add(OPENAPI_FILE);
    server.watcher.on("change", (file) => {
      if (file === OPENAPI_FILE) writeParts(referencePages(readOpenApi()));
    });
  },
});

const guide: DefaultTheme.SidebarItem[] = [
  {
    text: "Start",
    items: [page("Quickstart", "quickstart"), page("Embed", "embed"), page("Deploy", "deploy")],
  },
  {
    text: "Run your site",
    items: [
      page("The console", "console"),
      page("Agents", "agents"),
      page("Stage workflows", "stages"),
      page("Takeover", "takeover"),
      page("Photos", "photos"),
      page("Booking", "booking"),
      page("Webhooks", "webhooks"),
      page("MCP tools", "mcp"),
      page("Strategy desk", "strategy-desk"),
      page("Accounts", "accounts"),
    ],
  },
  {
    text: "Safety, privacy, security",
    items: [
      page("Safety guards", "guards"),
      page("Emergencies", "safety"),
      page("Privacy", "privacy"),
      page("Security", "security"),
      page("Accessibility", "accessibility"),
    ],
  },
  {
    text: "Operate",
    items: [page("Providers", "providers"), page("Limits and budgets", "limits"), page("Benchmarks", "benchmarks")],
  },
  {
    text: "Develop",
    items: [
      page("Architecture", "architecture"),
      page("Contributing", "contributing"),
      page("Dependencies", "dependencies"),
      page("Changelog", "changelog"),
    ],
  },
];

const api: DefaultTheme.SidebarItem[] = [
  {
    text: "API",
    items: [page("The API contract", "api"), page("Owner's setup API", "admin-api")],
  },
  {
    text: "API reference",
    items: reference.map((p) =>
      p.slug === "index" ? page("Overview", "reference/") : page(p.title, `reference/${p.slug}`),
    ),
  },
];

export default defineConfig({
  title: "Parley",
  description: "An embeddable AI-agent chat widget with a thin edge proxy",
  lang: "en",
  // The README, read on GitHub, is the front page; the site's is docs/index.md.
  srcExclude: ["**/README.md"],
  markdown: { anchor: { slugify: githubSlug }, headers: { slugify: githubSlug } },
  themeConfig: {
    nav: [
      { text: "Guide", link: "/quickstart" },
      { text: "API reference", link: "/reference/" },
      { text: "Changelog", link: "/changelog" },
    ],
    sidebar: { "/reference/": api, "/api": api, "/admin-api": api, "/": guide },
    outline: { level: [2, 3] },
    // Searched in the browser from an index built with the site: no outside service.
    search: { provider: "local" },
  },
  vite: {
    // Dependencies are scanned from the docs' own pages, not from the whole repository's HTML.
    optimizeDeps: { entries: [] },
    plugins: [referenceParts()],
  },
  // VitePress checks the links in pages, but not a link's #heading, nor the links it renders from this config
  // and from front matter (sidebar, nav, the home page): the built site is checked for all of them.
  // The pages' Markdown is checked as GitHub resolves it too (source-links.ts): a link there must lead to a file
  // the repository has.
  buildEnd(site) {
    const dead = deadLinks(site.outDir, site.site.base).map((d) => `  ${d.page}: ${d.href} (${d.reason})`);
    const onGitHub = docsSourceLinkProblems().map((p) => `  ${p.file}:${p.line}: ${p.href} (not in the repository)`);
    if (dead.length + onGitHub.length === 0) return;
    throw new Error(`${dead.length + onGitHub.length} dead link(s) in the docs:\n${[...dead, ...onGitHub].join("\n")}`);
  },
});
