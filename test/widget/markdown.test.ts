import { describe, expect, it } from "vitest";
import { PlainText } from "../../widget/ui/lazy-markdown.tsx";
import { renderMarkdown, safeHref } from "../../widget/ui/markdown.tsx";
import { toHtml } from "../helpers/widget/vnode-html.ts";

const html = (md: string) => toHtml(renderMarkdown(md));

describe("markdown to vnodes", () => {
  it("renders the common blocks and inlines", () => {
    const out = html(
      "# Title\n\nSome **bold**, *it*, `code` and ~~gone~~.\n\n- one\n- " +
        "two\n\n1. first\n2. second\n\n> quoted\n\n---\n\n```js\nif (a < b) x();\n```",
    );
    expect(out).toContain("<h3>Title</h3>");
    expect(out).toContain("<strong>bold</strong>");
    expect(out).toContain("<em>it</em>");
    expect(out).toContain("<code>code</code>");
    expect(out).toContain("<del>gone</del>");
    expect(out).toMatch(/<ul><li>one<\/li><li>two<\/li><\/ul>/);
    expect(out).toMatch(/<ol><li>first<\/li><li>second<\/li><\/ol>/);
    expect(out).toContain("<blockquote><p>quoted</p></blockquote>");
    expect(out).toContain("<hr></hr>");
    expect(out).toContain("<pre><code>if (a &lt; b) x();</code></pre>");
  });

  it("renders tables", () => {
    const out = html("| Drug | Dose |\n|---|--:|\n| A | 1 mg |");
    expect(out).toContain("<th>Drug</th>");
    expect(out).toContain("<td>1 mg</td>");
  });

  it("only links http(s), with safe rel and target", () => {
    const out = html("[ok](https://example.com/a) [bad](javascript:alert(1)) [data](data:text/html,hi) [rel](/x)");
    expect(out).toContain('<a href="https://example.com/a" target="_blank" rel="noopener noreferrer nofollow">ok</a>');
    expect(out).not.toContain("javascript:");
    expect(out).not.toContain('href="data:');
    expect(out).not.toContain('href="/x"');
    expect(out).toContain("bad");
    expect(safeHref(" JavaScript:alert(1)")).toBeNull();
    expect(safeHref("HTTPS://x.org")).toBe("HTTPS://x.org");
  });

  it("shows raw HTML as text, never as elements", () => {
    const out = html('Hi <script>alert(1)</script> there\n\n<img src=x onerror="alert(1)">\n\n<b onclick="x()">b</b>');
    expect(out).not.toMatch(/<script|<img|<b /);
    expect(out).toContain("&lt;script&gt;");
    expect(out).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });

  it("does not load images: alt text, linked only when http(s)", () => {
    expect(html("![scan](https://x.org/a.png)")).toBe(
      '<p><a href="https://x.org/a.png" target="_blank" rel="noopener noreferrer nofollow">scan</a></p>',
    );
    expect(html("![pix](javascript:evil)")).toBe("<p>pix</p>");
  });

  it("decodes entities as text", () => {
    expect(html("a &amp; b &lt;c&gt;")).toBe("<p>a &amp; b &lt;c&gt;</p>");
  });

  it("copes with partial markdown while streaming", () => {
    const full = "**Possible causes**\n\n- contact dermatitis\n- eczema\n\n[more](https://example.com)";
    for (let i = 0; i <= full.length; i++) expect(() => html(full.slice(0, i))).not.toThrow();
    // Optimistic, as a visitor expects of a stream: an unfinished bold is bold already. What the parser
    // holds back until it knows what it starts shows as text meanwhile.
    expect(toHtml(renderMarkdown("**Possible ca", false))).toBe("<p><strong>Possible ca</strong></p>");
    expect(toHtml(renderMarkdown("Then *", false))).toBe("<p>Then *</p>");
    expect(html("**Possible ca")).toBe("<p><strong>Possible ca</strong></p>");
  });

  it("shows text as plain paragraphs until the markdown chunk arrives, HTML and all as text", () => {
    const out = toHtml(PlainText({ text: '**Hi** <img src=x onerror="alert(1)">\n\n<script>alert(2)</script>' }));
    expect(out).toBe(
      '<div class="md"><p>**Hi** &lt;img src=x ' +
        "onerror=&quot;alert(1)&quot;&gt;</p><p>&lt;script&gt;alert(2)&lt;/script&gt" +
        ";</p></div>",
    );
  });
});
