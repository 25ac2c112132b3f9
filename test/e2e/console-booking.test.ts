import { mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEMO_ADMIN_KEY, newPage, useSite } from "../helpers/e2e.ts";
import { axeFindings, openPage, retype, signInByKeyboard } from "../helpers/console.ts";
import { CONSOLE_SHOTS } from "../helpers/browser.ts";

/**
 * The console's Booking page as an owner uses it, by keyboard (built bundle, `wrangler dev` in demo
 * mode): a secret name outside CALCOM_ refused at its field, the calendar saved with the worker saying
 * its key is not set (never showing a key), then disconnected; the agent editor's booking switch;
 * axe-core in English and Chinese. On a site of the file's own: the demo site's calendar stays connected
 * for the files that book on it meanwhile.
 */
const demo = useSite();

describe("the console's Booking page", () => {
  it("refuses a foreign secret name at its field, saves, says the key is not set, disconnects", async () => {
    const { context, page, errors } = await newPage(demo, { bypassCSP: true });
    await signInByKeyboard(page, demo.url, DEMO_ADMIN_KEY, demo.siteKey);
    await page.locator("main h1").waitFor();
    await openPage(page, "Booking");
    // Demo mode: the demo site's calendar answers whatever is set.
    await page.getByText("Demo mode: the demo site books against the demo calendar").waitFor();

    await retype(page, "booking-apiKeySecret", "SESSION_SECRET");
    await page.keyboard.press("Enter");
    const secret = page.locator("#booking-apiKeySecret");
    await page.getByText("a calendar key's secret name starts with CALCOM_").waitFor();
    expect(await secret.getAttribute("aria-invalid")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("booking-apiKeySecret");
    expect(await secret.getAttribute("aria-describedby")).toContain("booking-apiKeySecret-error");

    await retype(page, "booking-apiKeySecret", "CALCOM_API_KEY");
    await retype(page, "booking-eventTypeId", "4321");
    await retype(page, "booking-timeZone", "Europe/Berlin");
    await retype(page, "booking-daysAhead", "21");
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    expect(await secret.getAttribute("aria-invalid")).toBeNull();
    await expect(page.locator("#booking-key-state").textContent()).resolves.toContain("does not have this secret");
    const stored = await page.evaluate(() => fetch("/v1/admin/booking").then((r) => r.json()));
    expect(stored).toMatchObject({
      booking: { apiKeySecret: "CALCOM_API_KEY", eventTypeId: 4321, timeZone: "Europe/Berlin", daysAhead: 21 },
      keySet: false,
    });
    mkdirSync(CONSOLE_SHOTS, { recursive: true });
    await page.screenshot({ path: `${CONSOLE_SHOTS}/booking.png`, fullPage: true });
    expect(await axeFindings(page), "booking en").toEqual([]);
    await page.getByLabel("Language").selectOption("zh-CN");
    await page.getByRole("heading", { level: 1, name: "预约" }).waitFor();
    expect(await axeFindings(page), "booking zh-CN").toEqual([]);

    await page.getByRole("button", { name: "断开日历" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "已断开" }).waitFor();
    await page.getByText("尚未连接日历。").waitFor();
    expect((await page.evaluate(() => fetch("/v1/admin/booking").then((r) => r.json()))).booking).toBeNull();

    // Editors switch booking on per agent: the demo clinic's agent books.
    await page.goto(`${demo.url}/console/agents/derm-consult`);
    const books = page.locator("#agent-booking");
    await books.waitFor();
    expect(await books.isChecked()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
