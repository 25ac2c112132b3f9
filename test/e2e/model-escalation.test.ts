import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newPage, useUpstreamDemo } from "../helpers/e2e.ts";
import { escalateCall, streamedStep } from "../helpers/worker/scripted-provider.ts";

/**
 * The emergency guard's model layer as a visitor meets it (built bundle, local worker, a provider
 * whose model calls escalate_emergency first): the urgent card is pinned before any reply text,
 * the worker ran the call (the page asked no tool route), and the answer follows.
 */
const ANSWER = "Please call an ambulance now and stay with him.";
const MARK = "[model escalates]";

const demo = useUpstreamDemo({
  replay: ({ body }) => {
    const last = body.messages.filter((m) => m.role === "user").at(-1);
    const offered = ((body.tools as Array<{ function: { name: string } }>) ?? []).map((t) => t.function.name);
    if (!String(last?.content ?? "").includes(MARK) || !offered.includes("escalate_emergency")) return undefined;
    const step =
      body.messages.at(-1)?.role === "tool"
        ? { content: ANSWER }
        : { toolCalls: [escalateCall("neuro", "he fell and now we cannot wake him")] };
    const events = streamedStep(step, "chatcmpl-e2e").map((c) => `data: ${JSON.stringify(c)}\n\n`);
    return { status: 200, headers: { "content-type": "text/event-stream" }, events: [...events, "data: [DONE]\n\n"] };
  },
});

const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);

/** Records, inside the page, when the card and when the first reply text appeared. */
function watchOrder(page: Page) {
  return page.evaluate(() => {
    const w = window as unknown as { order: string[] };
    w.order = [];
    const root = document.querySelector("parley-chat")!.shadowRoot!;
    new MutationObserver(() => {
      if (!w.order.includes("card") && root.querySelector(".escalation")) w.order.push("card");
      const text = root.querySelector(".msg[data-role=assistant]:not(:first-child) .bubble")?.textContent?.trim();
      if (!w.order.includes("text") && text) w.order.push("text");
    }).observe(root, { subtree: true, childList: true, characterData: true });
  });
}

describe("the model's escalation in the browser", () => {
  it("the card is pinned before any reply text; the worker ran the call, the page ran no tool", async () => {
    const { context, page, errors } = await newPage(demo.browser);
    const tools: string[] = [];
    page.on("request", (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith("/v1/tools/")) tools.push(path);
    });
    await page.goto(demo.dev.url + "/");
    await q(page, "button.l").click();
    await q(page, ".msg[data-role=assistant] .bubble").first().waitFor();
    await watchOrder(page);
    await q(page, "textarea").click();
    await page.keyboard.type(`He has been like this since this morning, what now? ${MARK}`);
    await page.keyboard.press("Enter");
    const answer = q(page, ".msg[data-role=assistant] .bubble").last();
    await expect.poll(() => answer.textContent(), { timeout: 20_000 }).toContain(ANSWER);
    await q(page, '[data-streaming="true"]').waitFor({ state: "detached" });
    expect(await page.evaluate(() => (window as unknown as { order: string[] }).order)).toEqual(["card", "text"]);
    const card = q(page, ".escalation");
    expect(await card.getAttribute("data-category")).toBe("neuro");
    expect(await card.locator(".esc-body").textContent()).toContain("Note the time the signs began");
    expect(tools).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
