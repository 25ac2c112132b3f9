import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useDemo } from "../helpers/e2e.ts";
import { serveStatic, type StaticServer } from "../helpers/static-server.ts";

/**
 * Traces in the widget: a page that enables debug mode (`data-debug="true"`) gets a
 * trace view in the panel, loaded lazily, listing the session's steps from the worker — route
 * decisions, edge and client tool calls, completions — readable: time, kind, name, ms, result.
 * The host pages are on another origin than the worker, as a site's would be.
 */
const demo = useDemo();
let host: StaticServer;

const page = (agent: string, debug: boolean, locale = "") =>
  `<!doctype html><html><body><h1>Host</h1>
<script src="${demo.dev.url}/parley.js" data-site-key="demo-site-key-0001" ` +
  `data-agent="${agent}"${debug ? ' data-debug="true"' : ""}` +
  `${locale ? ` data-locale="${locale}"` : ""} async></script></body></html>`;

beforeAll(async () => {
  host = await serveStatic({
    pages: {
      "/qa": page("medical-qa", true),
      "/derm": page("derm-consult", true, "zh-CN"),
      "/plain": page("derm-consult", false),
    },
  });
});

afterAll(() => host?.close());

const q = (p: Page, sel: string) => p.locator(`parley-chat ${sel}`);

async function ask(p: Page, text: string) {
  await q(p, "textarea").fill(text);
  await q(p, "textarea").press("Enter");
  await q(p, "button.send.stop").waitFor();
  await q(p, "button.send.stop").waitFor({ state: "detached", timeout: 30_000 });
}

/**
 * Refreshes the open trace view until `ok` holds for its rows: the worker stores a turn's steps as
 * the turn's requests end, which may be just after the widget has shown the reply.
 */
async function traceUntil(p: Page, ok: (r: string[][]) => boolean) {
  await expect
    .poll(
      async () => {
        const r = await rows(p);
        if (ok(r)) return true;
        await q(p, ".trace-head button").click();
        await p.waitForTimeout(150);
        return false;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
}

/** The trace table as text rows: [time, kind, name, ms, result]. */
const rows = (p: Page) =>
  p.evaluate(() =>
    [...document.querySelector("parley-chat")!.shadowRoot!.querySelectorAll(".trace tbody > tr:first-child")].map(
      (tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent!.trim()),
    ),
  );

describe("trace view in debug mode", () => {
  it("lists the session's steps, loaded lazily, refreshed after a turn", async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
    const p = await context.newPage();
    const errors: string[] = [];
    p.on("pageerror", (e) => errors.push(String(e)));
    const scripts: string[] = [];
    p.on("request", (r) => r.resourceType() === "script" && scripts.push(r.url()));
    await p.goto(host.url + "/qa");
    await q(p, "button.l").click();
    await q(p, ".md").first().waitFor();
    await ask(p, "How much ibuprofen can I take for a headache?");
    expect(scripts.some((u) => u.includes("parley-chunk-trace-view-"))).toBe(false);

    const pill = q(p, 'button[data-action="trace"]');
    expect(await pill.textContent()).toBe("Trace");
    await pill.click();
    await q(p, ".trace-view").waitFor();
    await traceUntil(p, (r) => ["classify", "tool", "completion"].every((k) => r.some((x) => x[1] === k)));
    expect(scripts.some((u) => u.includes("parley-chunk-trace-view-"))).toBe(true);
    expect(await pill.getAttribute("aria-pressed")).toBe("true");
    expect(await q(p, ".trace-view h4").textContent()).toBe("Trace of this conversation");
    expect(await q(p, ".trace th").allTextContents()).toEqual(["Time", "Kind", "Name", "ms", "OK"]);
    const first = await rows(p);
    const kinds = first.map((r) => r[1]);
    // The router's decision, the quick path's retrieval (edge tools), the answer's completion.
    expect(kinds).toEqual(expect.arrayContaining(["classify", "tool", "completion"]));
    for (const [time, , , ms, result] of first) {
      expect(time).toMatch(/^\d\d:\d\d:\d\d$/);
      expect(ms).toMatch(/^[\d,]*$/);
      expect(result).toMatch(/^(✓ok|✗failed)$/);
    }
    expect(first.filter((r) => r[1] === "tool").map((r) => r[2])).toEqual(expect.arrayContaining(["knowledge_search"]));
    // The classify step says what was decided.
    expect(await q(p, 'tbody[data-trace-kind="classify"] .detail').first().textContent()).toContain("medicine_info");
    await p.waitForTimeout(200);
    await p.screenshot({ path: "test-results/e2e-trace.png" });

    // Back to the chat, another turn, then the trace again: it has grown.
    await pill.click();
    await q(p, ".trace").waitFor({ state: "detached" });
    expect(await pill.textContent()).toBe("Trace");
    await ask(p, "How much water should I drink a day?");
    await pill.click();
    await q(p, ".trace-view").waitFor();
    await traceUntil(p, (r) => r.length > first.length);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the browser's own tool calls, in Chinese; no trace without debug mode", async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "zh-CN" });
    const p = await context.newPage();
    await p.goto(host.url + "/derm");
    await q(p, "button.l").click();
    await q(p, ".md").first().waitFor();
    await ask(p, "我手臂上有发红发痒的皮疹");
    await q(p, 'button[data-action="trace"]').click();
    await q(p, ".trace-view").waitFor();
    // record_advice runs in the browser: its steps are the widget's own, stored in the session.
    await traceUntil(p, (r) => r.filter((x) => x[1] === "tool" && x[2] === "record_advice").length === 2);
    expect(await q(p, ".trace th").allTextContents()).toEqual(["时间", "类型", "名称", "毫秒", "结果"]);
    expect(await q(p, 'tbody[data-trace-kind="tool"] .detail').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining("side: client")]),
    );
    expect((await rows(p)).every((r) => r[4] === "✓成功" || r[4] === "✗失败")).toBe(true);
    await p.waitForTimeout(200);
    await p.screenshot({ path: "test-results/e2e-trace-zh.png" });

    await p.goto(host.url + "/plain");
    await q(p, "button.l").click();
    await q(p, ".md").first().waitFor();
    expect(await q(p, 'button[data-action="trace"]').count()).toBe(0);
    await context.close();
  });
});
