import type { Page, Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newPage, useDemoSite } from "../helpers/e2e.ts";

/**
 * The agent presets on their demo pages, driven as a visitor would (built bundle, local worker), on
 * the demo site itself (the sales page's rep is signed in for it).
 */
const demo = useDemoSite();

const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);

async function ask(page: Page, path: string, text: string) {
  await page.goto(demo.url + path);
  await q(page, "button.l").click();
  await q(page, ".panel").waitFor();
  await q(page, "textarea").click();
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

const open = () => newPage(demo, { viewport: { width: 1280, height: 860 } });

describe("agent presets in the browser", () => {
  it("dermatology consult: advice cards with evidence, kept in the advice list and across reloads", async () => {
    const { context, page, errors } = await open();
    await ask(page, "/", "I have a red itchy rash on my arm");
    const cards = q(page, "article.advice");
    await expect.poll(() => cards.count()).toBe(2);
    await expect
      .poll(() => q(page, ".msg[data-role=assistant] .bubble").last().textContent())
      .toContain("two advice cards");
    await q(page, '[data-streaming="true"]').waitFor({ state: "detached" });
    const first = cards.first();
    expect(await first.locator(".card-title").textContent()).toBe("Soothe and protect the skin");
    expect(await first.locator(".sev").textContent()).toBe("Tip");
    expect(await first.locator(".evidence li").count()).toBe(2);
    expect(await cards.nth(1).getAttribute("class")).toContain("caution");
    // Times of day in the visitor's locale (Intl), under the visitor's message and the reply.
    expect(await q(page, ".msg[data-role=user] time").textContent()).toMatch(/^\d{1,2}:\d{2}( [AP]M)?$/);
    expect(await q(page, ".msg[data-role=assistant] time").last().getAttribute("datetime")).toMatch(
      /^\d{4}-\d\d-\d\dT/,
    );
    // The cards sit inside the reply that gave them, between its answer and its closing line.
    const order = await q(page, ".msg[data-role=assistant]")
      .last()
      .evaluate((el) => Array.from(el.children).map((c) => c.className));
    expect(order.findIndex((c) => c.includes("advice"))).toBeGreaterThan(order.findIndex((c) => c === "part"));
    await page.screenshot({ path: "test-results/e2e-advice.png", animations: "disabled" });

    // The advice list in the header.
    await q(page, 'button[data-action="advice"]').click();
    await expect.poll(() => q(page, ".advice-list article.advice").count()).toBe(2);
    await q(page, 'button[data-action="advice"]').click();

    // Reload: the cards come back from the session.
    await page.reload();
    await q(page, "button.l").click();
    await expect.poll(() => q(page, "article.advice").count()).toBe(2);
    const advice = q(page, 'button[data-action="advice"]');
    // It shows the count; its name starts with that count (WCAG 2.5.3), the hover title says it in full.
    expect(await advice.textContent()).toBe("2 Your advice");
    expect(await advice.getAttribute("title")).toBe("Your advice (2)");
    // The agent's name is not cut: the button is an icon and a count.
    expect(await q(page, "#parley-title").evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it(
    "loads each lazy chunk when it is needed: markdown as the panel opens, the " +
      "tool runtime with the agent's config",
    async () => {
      const { context, page, errors } = await open();
      const chunks: string[] = [];
      page.on("request", (r: Request) => {
        const file = new URL(r.url()).pathname.slice(1);
        if (/^parley-(widget|chunk-)/.test(file)) chunks.push(file.replace(/-[\w-]{8}\.js$/, ""));
      });
      await page.goto(demo.url + "/");
      // The loader fetches the widget when idle; mounted, it fetches the visitor's strings (one language)
      // and nothing more until the panel opens.
      await expect
        .poll(() =>
          page.evaluate(
            () => !!document.querySelector("parley-chat")?.shadowRoot?.querySelector("[data-parley=widget]"),
          ),
        )
        .toBe(true);
      // Everything the page loads by itself has loaded.
      await page.waitForLoadState("networkidle");
      expect(chunks).toEqual(["parley-widget.js", "parley-chunk-strings"]);
      await q(page, "button.l").click();
      await q(page, ".panel").waitFor();
      // derm-consult has tools: their runtime comes with its config, before the visitor has typed.
      await expect
        .poll(() => ["parley-chunk-markdown", "parley-chunk-tool-runtime"].every((c) => chunks.includes(c)))
        .toBe(true);
      // Views not shown yet stay unloaded.
      expect(chunks.filter((c) => /stage-panel|trace-view/.test(c))).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("medical Q&A: a medicine question takes the quick path (classify + retrieval, one answer)", async () => {
    const { context, page, errors } = await open();
    const chats: Array<{ purpose?: string }> = [];
    const tools: string[] = [];
    page.on("request", (r: Request) => {
      const path = new URL(r.url()).pathname;
      if (path === "/v1/chat/completions") chats.push(r.postDataJSON().parley ?? {});
      if (path.startsWith("/v1/tools/")) tools.push(path.slice("/v1/tools/".length));
    });
    await ask(page, "/qa.html", "Can I take ibuprofen with paracetamol?");
    const answer = q(page, ".msg[data-role=assistant] .bubble").last();
    await expect.poll(() => answer.textContent()).toContain("Take ibuprofen with food");
    await q(page, '[data-streaming="true"]').waitFor({ state: "detached" });
    expect(chats.map((c) => c.purpose)).toEqual(["classify", "quick"]);
    expect(tools.sort()).toEqual(["knowledge_search", "web_search"]);
    expect(await answer.locator("a[href^='https://']").count()).toBe(1);
    await page.screenshot({ path: "test-results/e2e-quick.png" });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("sales coach (text ReAct): reasoning shown collapsed, only the final answer in the bubble", async () => {
    const { context, page, errors } = await open();
    await ask(page, "/sales.html", "A clinic asks whether our moisturiser suits eczema patients");
    const answer = q(page, ".msg[data-role=assistant] .bubble").last();
    await expect.poll(() => answer.textContent()).toContain("Talking points");
    await q(page, '[data-streaming="true"]').waitFor({ state: "detached" });
    expect(await q(page, ".panel").textContent()).not.toMatch(/Action Input|Final Answer:/);
    const reasoning = q(page, "details.reasoning").last();
    expect(await reasoning.locator("summary").textContent()).toMatch(/How I got there \(\d\)/);
    await reasoning.locator("summary").click();
    expect(await reasoning.locator("li.tool").textContent()).toContain("Searched our documents");
    await page.screenshot({ path: "test-results/e2e-react.png" });
    expect(errors).toEqual([]);
    await context.close();
  });
});
