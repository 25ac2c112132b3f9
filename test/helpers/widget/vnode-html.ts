import type { VNode } from "preact";

type Child = VNode | string | number | null | undefined | boolean | Child[];

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * Serializes a vnode tree of plain elements the way the DOM would show it, escaping all text, so
 * tests can assert on structure. (preact-render-to-string is not a dependency.) Function
 * components are called; hooks are not supported, so render the pure parts only.
 */
export function toHtml(node: Child): string {
  if (node == null || typeof node === "boolean") return "";
  if (Array.isArray(node)) return node.map(toHtml).join("");
  if (typeof node === "string" || typeof node === "number") return esc(String(node));
  const { type, props } = node as VNode<Record<string, unknown>>;
  const children = (props as { children?: Child }).children;
  if (typeof type === "function") {
    if (type.name === "Fragment" || !("prototype" in type && (type as { prototype?: unknown }).prototype)) {
      // Fragment (preact's is a function returning children) or a function component.
      return toHtml((type as (p: unknown) => Child)(props));
    }
    return toHtml((type as (p: unknown) => Child)(props));
  }
  const attrs = Object.entries(props)
    .filter(
      ([k, v]) => k !== "children" && v != null && v !== false && typeof v !== "function" && typeof v !== "object",
    )
    .map(([k, v]) => ` ${k}="${esc(String(v))}"`)
    .join("");
  return `<${type}${attrs}>${toHtml(children)}</${type}>`;
}
