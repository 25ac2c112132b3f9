import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { DemoScript } from "../../worker/demo/index.ts";
import { useSite } from "../helpers/e2e.ts";

/**
 * Model output is untrusted: known XSS payloads go THROUGH THE MODEL — a fake
 * OpenAI-compatible provider behind the real worker — into the built widget in Chromium, as reply
 * markdown, advice cards, follow-up questions and stage fields. Every payload, if it ran, would
 * call `top.pwn(<name>)` or open a dialog; the shadow root is watched for any element or attribute
 * that could run script or load something, from the first streamed token to the restored session.
 */

/** Anything that reaches here means a payload ran. */
const PWN = "top.pwn";
/** A host the browser cannot resolve: a request for it means an image (or similar) was loaded. */
const BEACON = "http://xss-beacon.test";

const MARKDOWN_PAYLOADS = [
  `# Heading <img src="${BEACON}/h1.png" onerror="${PWN}('heading')">`,
  "",
  `Hello <script>${PWN}('script')</script> world <b onclick="${PWN}('inline-html')">bold</b>.`,
  "",
  `<img src=x onerror="${PWN}('img')">`,
  "",
  `<img src=x onerror=alert(1)>`,
  "",
  `<svg onload="${PWN}('svg')"><circle r=5></circle></svg>`,
  "",
  `<svg><animate onbegin="${PWN}('svg-animate')" attributeName=x dur=1s></animate></svg>`,
  "",
  `<iframe srcdoc="<script>${PWN}('iframe-srcdoc')</script>"></iframe>`,
  "",
  `<iframe src="javascript:${PWN}('iframe-src')"></iframe>`,
  "",
  `<object data="javascript:${PWN}('object')"></object><embed src="javascript:${PWN}('embed')">`,
  "",
  `<a href="javascript:${PWN}('raw-a')">raw anchor</a> <details open ontoggle="${PWN}('details')">d</details>`,
  "",
  `<math><mtext><table><mglyph><style><img src=x onerror="${PWN}('mxss')">`,
  "",
  `<form action="javascript:${PWN}('form')"><button>go</button></form> <input autofocus onfocus="${PWN}('autofocus')">`,
  "",
  `<style>@import "${BEACON}/style.css";</style><link rel=stylesheet ` +
    `href="${BEACON}/link.css"><base href="javascript:/">`,
  "",
  `[md link](javascript:${PWN}('md-link')) [mixed ` +
    `case](JaVaScRiPt:${PWN}('md-case')) [spaced]( javascript:${PWN}('md-space'))`,
  "",
  `[entity](jav&#x61;script:${PWN}('md-entity')) ` +
    `[entity2](&#106;avascript:${PWN}('md-entity2')) ` +
    `[escaped](javascript&colon;${PWN}('md-colon'))`,
  "",
  `[data](data:text/html;base64,PHNjcmlwdD50b3AucHduKCdkYXRhJyk8L3NjcmlwdD4=)` +
    ` [vb](vbscript:msgbox(1)) [file](file:///etc/passwd) [rel](/v1/health)`,
  "",
  `<javascript:${PWN}('autolink')> <data:text/html,xss> <vbscript:msgbox(1)>`,
  "",
  `[titled](https://example.com/ok "x\\" onmouseover=\\"${PWN}('title')")`,
  "",
  `[safe link](https://example.com/safe) and www.example.org too.`,
  "",
  `![pixel](${BEACON}/pixel.png) ![js image](javascript:${PWN}('md-img')) ` +
    `![x" onerror="${PWN}('alt')](${BEACON}/alt.png)`,
  "",
  `[![nested](${BEACON}/nested.png)](https://example.com/n)`,
  "",
  `[reference][r]`,
  "",
  `[r]: javascript:${PWN}('reference')`,
  "",
  `| head <img src=x onerror="${PWN}('th')"> | b |`,
  `|---|---|`,
  `| [cell](javascript:${PWN}('td-link')) | <script>${PWN}('td-script')</script> |`,
  "",
  "```html",
  `<script>${PWN}('code-block')</script><img src=x onerror="${PWN}('code-img')">`,
  "```",
  "",
  `Inline \`<img src=x onerror="${PWN}('codespan')">\` code.`,
  "",
  `&lt;script&gt;${PWN}('entities')&lt;/script&gt; &#60;img src=x onerror=${PWN}('numeric')&#62;`,
  "",
  `> quoted <img src=x onerror="${PWN}('quote')">`,
  "",
  `- item <svg onload="${PWN}('list')">`,
  `- **bold <img src=x onerror="${PWN}('strong')">**`,
  "",
  `END-OF-PAYLOADS`,
].join("\n");

const ADVICE_PAYLOAD = {
  title: `<img src=x onerror="${PWN}('advice-title')">`,
  content: `<script>${PWN}('advice-content')</script> [x](javascript:${PWN}('advice-md'))`,
  evidence: [
    `<svg onload="${PWN}('advice-evidence')">`,
    `javascript:${PWN}('advice-evidence2')`,
    `${BEACON}/evidence.png`,
  ],
  // "urgent" is only for the emergency category (shared/tools/advice-policy.ts); the payload is in the category.
  severity: "caution",
  category: `<iframe srcdoc="<script>${PWN}('cat')</script>">`,
};

const script: DemoScript = {
  agentId: "xss",
  turns: [
    { when: ["markdown payloads"], steps: [{ content: MARKDOWN_PAYLOADS }] },
    {
      when: ["advice payloads"],
      steps: [
        {
          content: `Cards follow <img src=x onerror="${PWN}('advice-text')">`,
          toolCalls: [{ name: "record_advice", arguments: ADVICE_PAYLOAD }],
        },
        { content: `Done <script>${PWN}('advice-final')</script> ADVICE-DONE` },
      ],
    },
    {
      when: ["followup payloads"],
      steps: [
        {
          toolCalls: [
            {
              name: "ask_followup",
              arguments: {
                question: `<img src=x onerror="${PWN}('followup-q')"> where?`,
                options: [`<script>${PWN}('followup-opt')</script>`, `[o](javascript:${PWN}('followup-md'))`],
                missing: "location",
              },
            },
          ],
        },
      ],
    },
    {
      // The protocol designer's first stage: payloads in extracted stage fields.
      when: ["stage payloads"],
      steps: [
        {
          toolCalls: [
            {
              name: "record_stage_data",
              arguments: {
                values: {
                  research_question: `<img src=x onerror="${PWN}('stage-field')"> does it work?`,
                  rationale: `[why](javascript:${PWN}('stage-md')) <script>${PWN}('stage-script')</script>`,
                },
              },
            },
          ],
        },
        { content: `Recorded <svg onload="${PWN}('stage-text')"> STAGE-DONE` },
      ],
    },
  ],
  fallback: { steps: [{ content: "fallback" }] },
};

const demo = useSite({ script });

interface Watch {
  page: Page;
  dialogs: string[];
  beacons: string[];
  errors: string[];
}

/**
 * A page whose every frame defines `pwn` (a payload that runs calls it), and whose widget shadow
 * root is observed from the moment it is attached: any element or attribute that could run script
 * or fetch something is recorded as it appears, so a transient state while streaming counts too.
 */
async function watchedPage(path: string): Promise<Watch> {
  // The demo pages' CSP would stop most payloads too; the renderer must be safe on its own, and the
  // control below must be able to run one, so the policy is bypassed here.
  const context = await demo.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  await context.addInitScript(() => {
    const w = window as any;
    w.__pwned = [];
    w.pwn = (name: string) => w.__pwned.push(name);
    w.__bad = [];
    const BAD_TAGS = new Set([
      "SCRIPT",
      "IFRAME",
      "FRAME",
      "OBJECT",
      "EMBED",
      "IMG",
      "IMAGE",
      "VIDEO",
      "AUDIO",
      "SOURCE",
      "LINK",
      "BASE",
      "META",
      "MATH",
      "ANIMATE",
      "SET",
    ]);
    const URL_ATTRS = new Set([
      "href",
      "src",
      "srcdoc",
      "action",
      "formaction",
      "xlink:href",
      "data",
      "poster",
      "background",
    ]);
    const check = (el: Element) => {
      const inWidgetChrome = el.closest("button") && !el.closest(".md, .card");
      if (BAD_TAGS.has(el.tagName.toUpperCase())) w.__bad.push(`<${el.tagName}>`);
      if (el.tagName.toLowerCase() === "svg" && !inWidgetChrome) w.__bad.push("<svg> outside an icon button");
      if (el.tagName === "STYLE" && el.parentElement?.closest(".md, .card, .msg")) w.__bad.push("<style> in content");
      for (const a of Array.from(el.attributes)) {
        const name = a.name.toLowerCase();
        if (name.startsWith("on")) w.__bad.push(`${el.tagName} ${name}`);
        if (URL_ATTRS.has(name) && !/^https?:\/\//i.test(a.value.trim()))
          w.__bad.push(`${el.tagName} ${name}=${a.value}`);
      }
    };
    const observe = (root: ShadowRoot) =>
      new MutationObserver((records) => {
        for (const r of records) {
          if (r.type === "attributes") check(r.target as Element);
          r.addedNodes.forEach((n) => {
            if (n.nodeType !== 1) return;
            check(n as Element);
            (n as Element).querySelectorAll("*").forEach(check);
          });
        }
      }).observe(root, { subtree: true, childList: true, attributes: true });
    const attach = Element.prototype.attachShadow;
    Element.prototype.attachShadow = function (init) {
      const root = attach.call(this, init);
      observe(root);
      return root;
    };
  });
  const page = await context.newPage();
  const w: Watch = { page, dialogs: [], beacons: [], errors: [] };
  page.on("dialog", (d) => {
    w.dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  page.on("request", (r) => {
    const url = r.url();
    // Payload URLs: the beacon host, or `src=x` resolved against the page.
    if (url.startsWith(BEACON) || /\/x$/.test(url) || url.startsWith("javascript:") || url.startsWith("data:text/html"))
      w.beacons.push(url);
  });
  page.on("pageerror", (e) => w.errors.push(String(e)));
  await page.goto(demo.url + path);
  return w;
}

const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);

async function ask(page: Page, text: string) {
  await q(page, "textarea").fill(text);
  await q(page, "textarea").press("Enter");
}

/** The shadow root as it is now: elements, attributes and links that matter. */
async function inspect(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector("parley-chat")!.shadowRoot!;
    const all = [...root.querySelectorAll("*")];
    return {
      scripts: root.querySelectorAll(
        "script, iframe, frame, object, embed, img, image, video, audio, link, " +
          "base, meta, math, form[action], button[formaction]",
      ).length,
      contentSvg: root.querySelectorAll(".md svg, .card svg, .followup svg, .stage svg").length,
      onAttrs: all.flatMap((el) =>
        [...el.attributes].filter((a) => a.name.toLowerCase().startsWith("on")).map((a) => `${el.tagName} ${a.name}`),
      ),
      links: [...root.querySelectorAll("a")].map((a) => ({
        href: a.getAttribute("href") ?? "",
        rel: a.getAttribute("rel") ?? "",
        target: a.getAttribute("target") ?? "",
      })),
      text: root.textContent ?? "",
    };
  });
}

async function expectClean(w: Watch) {
  const seen = await inspect(w.page);
  expect(await w.page.evaluate(() => (window as any).__pwned)).toEqual([]);
  expect(await w.page.evaluate(() => (window as any).__bad)).toEqual([]);
  expect(w.dialogs).toEqual([]);
  expect(w.beacons).toEqual([]);
  expect(seen.scripts).toBe(0);
  expect(seen.contentSvg).toBe(0);
  expect(seen.onAttrs).toEqual([]);
  for (const link of seen.links) {
    expect(link.href).toMatch(/^https?:\/\//i);
    expect(link.rel.split(/\s+/)).toContain("noopener");
    expect(link.target).toBe("_blank");
  }
  return seen;
}

describe("model output is untrusted", () => {
  it("has detectors that catch a payload that does run (control)", async () => {
    const w = await watchedPage("/");
    const { page } = w;
    await q(page, "button.l").click();
    await q(page, ".md").first().waitFor();
    // What a renderer that used innerHTML would do with the same payloads.
    await page.evaluate(
      ([pwn, beacon]) => {
        const md = document.querySelector("parley-chat")!.shadowRoot!.querySelector(".md")!;
        md.insertAdjacentHTML(
          "beforeend",
          `<img src="${beacon}/control.png" onerror="${pwn}('control')"><a href="javascript:void 0">j</a>`,
        );
        setTimeout(() => alert("control"));
      },
      [PWN, BEACON],
    );
    await expect.poll(() => page.evaluate(() => (window as any).__pwned)).toEqual(["control"]);
    expect(await page.evaluate(() => (window as any).__bad)).toEqual(
      expect.arrayContaining(["<IMG>", "IMG onerror", "A href=javascript:void 0"]),
    );
    expect(w.beacons).toEqual([`${BEACON}/control.png`]);
    await expect.poll(() => w.dialogs).toEqual(["alert: control"]);
    await page.context().close();
  });

  it("runs no payload in reply markdown, while streaming and after a reload", async () => {
    const w = await watchedPage("/");
    const { page } = w;
    await q(page, "button.l").click();
    await q(page, ".panel").waitFor();
    await ask(page, "please send the markdown payloads");
    await expect
      .poll(() => q(page, ".msg[data-role=assistant] .bubble").last().textContent())
      .toContain("END-OF-PAYLOADS");
    await q(page, '[data-streaming="true"]').waitFor({ state: "detached" });
    // Any load that was going to start has ended, and its onerror/onload has fired.
    await page.waitForLoadState("networkidle");
    const seen = await expectClean(w);
    // The payloads are there, shown as text: nothing was dropped silently.
    expect(seen.text).toContain(`<script>${PWN}('script')</script>`);
    expect(seen.text).toContain(`<img src=x onerror="${PWN}('img')">`);
    expect(seen.text).toContain(`<iframe srcdoc=`);
    // Only the http(s) links became links (an image's URL is a link, never loaded); the code block kept its text.
    for (const { href } of seen.links)
      expect(href).toMatch(/^(https:\/\/example\.com\/|http:\/\/www\.example\.org|http:\/\/xss-beacon\.test\/)/);
    expect(seen.links.some((l) => l.href === "https://example.com/safe")).toBe(true);
    expect(await q(page, ".md pre code").first().textContent()).toContain(`<script>${PWN}('code-block')</script>`);
    expect(await q(page, ".md table").count()).toBe(1);
    await page.screenshot({ path: "test-results/e2e-xss-markdown.png" });

    // The same reply restored from the session (another path into the renderer).
    await page.reload();
    await q(page, "button.l").click();
    await expect
      .poll(() => q(page, ".msg[data-role=assistant] .bubble").last().textContent())
      .toContain("END-OF-PAYLOADS");
    await page.waitForLoadState("networkidle");
    await expectClean(w);
    expect(w.errors).toEqual([]);
    await page.context().close();
  });

  it("runs no payload in advice cards and follow-up questions", async () => {
    const w = await watchedPage("/");
    const { page } = w;
    await q(page, "button.l").click();
    await q(page, ".panel").waitFor();
    await ask(page, "now the advice payloads");
    await expect.poll(() => q(page, ".msg[data-role=assistant]").last().textContent()).toContain("ADVICE-DONE");
    await q(page, "button.send.stop").waitFor({ state: "detached" });
    const card = q(page, "article.card");
    expect(await card.count()).toBe(1);
    expect(await card.locator(".card-title").textContent()).toBe(ADVICE_PAYLOAD.title);
    expect(await card.locator(".card-body").textContent()).toBe(ADVICE_PAYLOAD.content);
    expect(await card.locator(".evidence li").allTextContents()).toEqual(ADVICE_PAYLOAD.evidence);
    expect(await card.locator(".cat").textContent()).toBe(ADVICE_PAYLOAD.category);
    // The advice list view renders the same cards.
    await q(page, ".head .pill[data-action=advice]").click();
    await q(page, ".advice-list article.card").waitFor();
    await page.waitForLoadState("networkidle");
    await expectClean(w);
    await q(page, ".head .pill[data-action=advice]").click();

    await ask(page, "and the followup payloads");
    const followup = q(page, ".followup");
    await expect.poll(() => followup.count()).toBe(1);
    await q(page, "button.send.stop").waitFor({ state: "detached" });
    expect(await followup.locator("p").textContent()).toContain(`onerror="${PWN}('followup-q')"`);
    expect(await followup.locator("button.chip").allTextContents()).toEqual([
      `<script>${PWN}('followup-opt')</script>`,
      `[o](javascript:${PWN}('followup-md'))`,
    ]);
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: "test-results/e2e-xss-advice.png", animations: "disabled" });
    await expectClean(w);
    expect(w.errors).toEqual([]);
    await page.context().close();
  });

  it("runs no payload in extracted stage fields or the protocol summary", async () => {
    const w = await watchedPage("/protocol.html");
    const { page } = w;
    await q(page, "button.l").click();
    await q(page, ".panel").waitFor();
    await ask(page, "stage payloads please");
    await expect.poll(() => q(page, ".msg[data-role=assistant]").last().textContent()).toContain("STAGE-DONE");
    await q(page, "button.send.stop").waitFor({ state: "detached" });
    await q(page, 'button[data-action="stages"]').click();
    const field = q(page, 'section[data-stage="question"] [data-field="research_question"] dd span').first();
    await expect.poll(() => field.textContent()).toContain(`onerror="${PWN}('stage-field')"`);
    // Edit in place: the value goes into a form control as text.
    await q(page, 'section[data-stage="question"] [data-field="rationale"] button').click();
    expect(await q(page, 'section[data-stage="question"] [data-field="rationale"] textarea').inputValue()).toContain(
      `<script>${PWN}('stage-script')</script>`,
    );
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: "test-results/e2e-xss-stage.png", animations: "disabled" });
    await expectClean(w);
    expect(w.errors).toEqual([]);
    await page.context().close();
  });
});
