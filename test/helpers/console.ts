import { resolve } from "node:path";
import type { Page } from "playwright-core";

/** The demo site's keys (worker/demo: published for local runs only). */
export const CONSOLE_SITE = "demo-site-key-0001";

/** Signs in to the console at `url` with the keyboard only: focus moves by Tab, Enter submits. */
export async function signInByKeyboard(page: Page, url: string, adminKey: string, siteKey = CONSOLE_SITE) {
  await page.goto(`${url}/console`);
  await page.locator("#site-key").waitFor();
  await page.keyboard.press("Tab");
  await expectFocus(page, "site-key");
  await page.keyboard.type(siteKey);
  await page.keyboard.press("Tab");
  await expectFocus(page, "admin-key");
  await page.keyboard.type(adminKey);
  await page.keyboard.press("Enter");
}

async function expectFocus(page: Page, id: string) {
  const focused = await page.evaluate(() => document.activeElement?.id);
  if (focused !== id) throw new Error(`expected focus on #${id}, found ${focused}`);
}

export interface Finding {
  id: string;
  impact: string;
  targets: unknown[];
}

/** axe-core's serious and critical findings on the whole page (the page needs bypassCSP to take the script). */
export async function axeFindings(page: Page): Promise<Finding[]> {
  if (!(await page.evaluate(() => "axe" in window)))
    await page.addScriptTag({ path: resolve("node_modules/axe-core/axe.min.js") });
  return page.evaluate(async () => {
    const res = await (window as any).axe.run(document, { resultTypes: ["violations"] });
    return res.violations
      .filter((v: any) => v.impact === "serious" || v.impact === "critical")
      .map((v: any) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n: any) => n.target) }));
  });
}

/** A virtual platform authenticator (user verification on, presence answered) for the page's context. */
export async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
  };
}
