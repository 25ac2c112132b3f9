import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage, useSite } from "../helpers/e2e.ts";
import { buildHostApp } from "../helpers/host-app.ts";
import { serveStatic, type StaticServer } from "../helpers/static-server.ts";

/**
 * The two embeds besides the script tag, built as shipped (`npm run build` first): the iframe
 * embed page with its postMessage bridge, and the npm package in a host app built by Vite. The embed
 * page's own headers and refusals are checked in test/worker/embed-page.test.ts.
 */
const demo = useSite();
const servers: StaticServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const frameEvents = (page: Page) =>
  page.evaluate(() => ((window as any).__events ?? []).map((e: any) => e.event) as string[]);

describe("iframe embed", () => {
  it("is driven by the partner portal through the bridge, and ignores a foreign frame", async () => {
    // bypassCSP: the foreign frame below is an inline srcdoc, which the portal's own CSP would refuse.
    const context = await demo.newContext({ bypassCSP: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(demo.url + "/portal.html");
    await expect.poll(() => frameEvents(page)).toContain("ready");

    await page.click("#ask");
    const chat = page.frameLocator("#chat-frame");
    await chat.locator(".panel").waitFor();
    // Full-frame: the panel fills the iframe, and there is no launcher inside.
    const box = await page.locator("#chat-frame").boundingBox();
    const panelBox = await chat.locator(".panel").boundingBox();
    expect(panelBox).toMatchObject({ x: box!.x, y: box!.y, width: box!.width, height: box!.height });
    expect(await chat.locator(".launcher").count()).toBe(0);

    await page.click("#send");
    await expect.poll(() => chat.locator('.msg[data-role="user"]').count()).toBe(1);
    await expect.poll(() => frameEvents(page)).toContain("message");
    await expect.poll(async () => (await frameEvents(page)).filter((e) => e === "message").length).toBe(2);
    expect(await frameEvents(page)).toContain("advice");

    // A frame of another origin (sandboxed: origin "null") posts commands to the chat frame: ignored.
    // The chat frame counts what it is sent after its bridge has handled it (listeners run in order).
    const chatFrame = page.frames().find((f) => f.url().includes("/embed/"))!;
    await chatFrame.evaluate(() => {
      const w = window as any;
      w.__foreign = 0;
      addEventListener("message", (e) => e.origin === "null" && w.__foreign++);
    });
    await page.evaluate(() => {
      const evil = document.createElement("iframe");
      evil.setAttribute("sandbox", "allow-scripts");
      evil.srcdoc =
        `<script>
        const chat = parent.frames[0];
        for (const cmd of ["hello", "send", "identity", "close"]) ` +
        `chat.postMessage({ parley: 1, cmd, value: "from a foreign origin" }, "*");
        addEventListener("message", (e) => parent.postMessage({ leaked: e.data }, "*"));
      <\/script>`;
      document.body.append(evil);
      (window as any).__leaks = [];
      addEventListener("message", (e) => e.data?.leaked && (window as any).__leaks.push(e.data.leaked));
    });
    await expect.poll(() => chatFrame.evaluate(() => (window as any).__foreign)).toBe(4);
    // Two frames later, anything the commands changed would be on screen.
    await chatFrame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await chat.locator('.msg[data-role="user"]').count()).toBe(1);
    expect(await chat.locator(".panel").count()).toBe(1);
    expect(await page.evaluate(() => (window as any).__leaks.length)).toBe(0);

    // Switching identity through the bridge: a fresh conversation.
    await page.selectOption("#who", "partner-ana");
    await expect.poll(() => chat.locator('.msg[data-role="user"]').count()).toBe(0);
    await page.selectOption("#theme", "dark");
    await expect.poll(() => chat.locator(".root").getAttribute("data-theme")).toBe("dark");
    await page.screenshot({ path: "test-results/e2e-portal.png", animations: "disabled" });

    // Escape inside the frame closes the panel; the host hears "close" and hides the frame.
    await chat.locator("textarea").press("Escape");
    await expect.poll(() => page.locator("#chat-frame").isHidden()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("does not answer a parent whose origin the site does not allow", async () => {
    // A page on an opaque origin frames the embed page: frame-ancestors refuses it.
    const context = await demo.newContext();
    const page = await context.newPage();
    const host = await serveStatic({
      pages: {
        "/":
          `<!doctype html><iframe sandbox="allow-scripts" srcdoc="<iframe ` +
          `src='${demo.url}/embed/derm-consult?site=${demo.siteKey}'></iframe>"` +
          `></iframe>`,
      },
    });
    servers.push(host);
    const refused: string[] = [];
    page.on("console", (m) => /frame-ancestors|Refused to frame/i.test(m.text()) && refused.push(m.text()));
    await page.goto(host.url);
    await expect.poll(() => refused.length).toBeGreaterThan(0);
    await context.close();
  });
});

describe("npm package in a host app built with Vite", () => {
  let host: StaticServer;
  beforeAll(async () => {
    const app = await buildHostApp("vite-host");
    host = await serveStatic({ dir: app.dir });
    servers.push(host);
    expect(app.typecheck.ok, app.typecheck.output).toBe(true);
    return app.cleanup;
  }, 120_000);

  it("mounts, chats, isolates styles, and switches identity without a reload", async () => {
    const { context, page, errors } = await newPage(demo);
    await page.goto(`${host.url}/?api=${encodeURIComponent(demo.url)}`);
    const launcher = page.locator("#chat button.launcher");
    await launcher.waitFor();
    expect(await launcher.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe("rgb(255, 105, 180)");
    // theme: "dark" from the options.
    expect(await page.locator("#chat .root").getAttribute("data-theme")).toBe("dark");

    await page.evaluate(() => (window as any).parley.send("alice has a red itchy rash"));
    await expect.poll(() => page.evaluate(() => (window as any).parleyEvents.length)).toBe(2);
    expect(await page.locator('#chat .msg[data-role="user"]').count()).toBe(1);

    // Bob logs in: nothing of alice's conversation, and another stored session.
    await page.evaluate(() => (window as any).parley.setIdentity("bob"));
    await expect.poll(() => page.locator('#chat .msg[data-role="user"]').count()).toBe(0);
    await page.evaluate(() => (window as any).parley.send("bob has a red itchy rash"));
    await expect.poll(() => page.locator('#chat .msg[data-role="user"]').count()).toBe(1);
    expect(await page.locator('#chat .msg[data-role="user"] .bubble').textContent()).toBe("bob has a red itchy rash");
    const keys = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("parley:session:")));
    expect(keys.length).toBe(2);
    expect(keys.join(" ")).not.toMatch(/alice|bob/); // hashed
    // Back to alice: her conversation is restored, not bob's.
    await page.locator('#chat [data-streaming="true"]').waitFor({ state: "detached" });
    await page.evaluate(() => (window as any).parley.setIdentity("alice"));
    await expect
      .poll(() => page.locator('#chat .msg[data-role="user"] .bubble').allTextContents())
      .toEqual(["alice has a red itchy rash"]);

    // The <parley-chat> element defined by the package mounted its own widget.
    await expect.poll(() => page.locator("#element button.launcher").count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
