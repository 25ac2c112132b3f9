// Heading anchors as GitHub makes them, so a link such as `embed.md#theming` works both on the docs site and
// when the Markdown is read on GitHub: lower case, punctuation and symbols dropped, each space a hyphen
// (not collapsed: "A — B" is `a--b` there). Repeated headings get `-1`, `-2` from the anchor plugin, as on GitHub.
const DROPPED = /[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu;

export function githubSlug(heading: string): string {
  return heading.trim().toLowerCase().replace(DROPPED, "").replace(/ /g, "-");
}
