import { signal } from "@preact/signals";

export const BASE = "/console";

/** The path under /console, without slashes at the ends: "conversations/abc". */
export const route = signal(current());

function current(): string {
  return location.pathname.slice(BASE.length).replace(/^\/+|\/+$/g, "");
}

addEventListener("popstate", () => (route.value = current()));

export const href = (path: string) => `${BASE}/${path}`;

export function navigate(path: string, replace = false): void {
  history[replace ? "replaceState" : "pushState"](null, "", href(path));
  route.value = current();
}

/** A click on an in-console link: navigates without a page load, unless the owner asked for a new tab. */
export function onLinkClick(e: MouseEvent, path: string): void {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(path);
}
