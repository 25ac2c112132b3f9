import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage, useDemoSite } from "../helpers/e2e.ts";
import { answered } from "../helpers/e2e-waits.ts";
import { buildHostApp, type HostApp } from "../helpers/host-app.ts";
import { serveStatic, type StaticServer } from "../helpers/static-server.ts";

/** The npm package inside a React app (React 19, built by Vite), as a host SPA would use it (on the demo site). */
const demo = useDemoSite();
let app: HostApp;
let host: StaticServer;

beforeAll(async () => {
  app = await buildHostApp("react-host");
  host = await serveStatic({ dir: app.dir });
}, 120_000);

afterAll(async () => {
  await host?.close();
  app?.cleanup();
});

describe("npm package in a React host", () => {
  it("type-checks, mounts, chats, switches identity and unmounts cleanly", async () => {
    expect(app.typecheck.ok, app.typecheck.output).toBe(true);
    const { context, page, errors } = await newPage(demo);
    await page.goto(`${host.url}/?api=${encodeURIComponent(demo.url)}`);
    const launcher = page.locator("#chat button.launcher");
    await launcher.waitFor();
    expect(await launcher.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe("rgb(255, 105, 180)");

    await page.evaluate(() => (window as any).parley.send("carol has a red itchy rash"));
    await expect
      .poll(() => page.locator('#chat .msg[data-role="user"] .bubble').allTextContents())
      .toEqual(["carol has a red itchy rash"]);
    await answered(page, "carol has a red itchy rash", "#chat");

    // React state changes the identity: dave sees none of carol's conversation.
    await page.locator("#switch").check();
    await expect.poll(() => page.locator('#chat .msg[data-role="user"]').count()).toBe(0);

    // Unmounting the React component destroys the widget: nothing is left in the page.
    await page.locator("#unmount").check();
    await expect.poll(() => page.locator("#chat").count()).toBe(0);
    expect(await page.locator("button.launcher").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
