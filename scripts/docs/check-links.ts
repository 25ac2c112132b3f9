// Dead links in the built docs site. VitePress fails a build on a page's link to a missing page, but not on
// a link to a missing `#heading`, nor on the links it renders from its config and front matter (the
// sidebar, the nav, the home page's buttons). This reads every built page's ids and every internal link,
// after the build, and names each link whose page or heading is missing.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix, relative } from "node:path";

export interface DeadLink {
  /** The built page the link is on, relative to the site's root (`embed.html`). */
  page: string;
  href: string;
  reason: "no such page" | "no such heading";
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "assets" ? [] : htmlFiles(path);
    return e.name.endsWith(".html") ? [path] : [];
  });
}

const ID = /\sid="([^"]+)"/g;
const HREF = /<a\s[^>]*?href="([^"]*)"/g;
const decode = (s: string) =>
  decodeURIComponent(
    s
      .replace(/&amp;/g, "&")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'"),
  );

/** The file a link on `page` leads to, relative to the site's root, or null for an outside link. */
function targetOf(page: string, path: string, base: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith("//")) return null;
  let target =
    path === "" ? page : path.startsWith("/") ? path.slice(base.length) : posix.join(posix.dirname(page), path);
  if (target === "" || target.endsWith("/")) target += "index.html";
  else if (!/\.[a-z0-9]+$/i.test(target)) target += ".html";
  return target;
}

/** Every internal link in the site under `outDir` whose page, or whose page's heading, does not exist. */
export function deadLinks(outDir: string, base = "/"): DeadLink[] {
  const pages = new Map<string, { html: string; ids: Set<string> }>();
  for (const file of htmlFiles(outDir)) {
    const html = readFileSync(file, "utf8");
    const ids = new Set([...html.matchAll(ID)].map((m) => decode(m[1])));
    pages.set(relative(outDir, file).split("\\").join("/"), { html, ids });
  }
  const dead: DeadLink[] = [];
  for (const [page, { html }] of pages) {
    for (const [, href] of html.matchAll(HREF)) {
      const [path, fragment] = decode(href).split("#", 2);
      const target = targetOf(page, path.split("?")[0], base);
      if (target === null) continue;
      const found = pages.get(target);
      if (!found && !existsSync(join(outDir, target))) dead.push({ page, href: decode(href), reason: "no such page" });
      else if (found && fragment && !found.ids.has(fragment))
        dead.push({ page, href: decode(href), reason: "no such heading" });
    }
  }
  return dead;
}
