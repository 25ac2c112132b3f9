import { resolve } from "node:path";
import type { Page } from "playwright-core";

/** The demo site's keys (worker/demo: published for local runs only). */
export const CONSOLE_SITE = "demo-site-key-0001";

/** Moves to a console page through its navigation link, by keyboard (focus, Enter). */
export async function openPage(page: Page, name: string) {
  await page.getByRole("navigation").getByRole("link", { name, exact: true }).focus();
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { level: 1, name, exact: true }).waitFor();
}

/** Replaces a field's text by keyboard: focus, select all, type. */
export async function retype(page: Page, id: string, text: string) {
  await page.locator(`#${id}`).focus();
  await page.keyboard.press("Control+A");
  await page.keyboard.type(text);
}

/**
 * Signs in to the console at `url` with the keyboard only, in the page's order: Tab to the site key,
 * past the team's ways in (the site's single sign-on when it has one, a passkey) to the admin key's
 * disclosure, Enter opens it (unless a failed sign-in link opened it), Tab to the key, Enter submits.
 */
export async function signInByKeyboard(page: Page, url: string, adminKey: string, siteKey = CONSOLE_SITE) {
  await page.goto(`${url}/console`);
  await page.locator("#site-key").waitFor();
  await page.keyboard.press("Tab");
  await expectFocus(page, "site-key");
  await page.keyboard.type(siteKey);
  await page.keyboard.press("Tab");
  // The single sign-on button appears once the site key's look-up answers: before or after focus moves.
  if ((await focusedId(page)) === "sso-sign-in") await page.keyboard.press("Tab");
  await expectFocus(page, "passkey-sign-in");
  await page.keyboard.press("Tab");
  await expectFocus(page, "admin-key-way");
  if (!(await page.locator("details.admin-key").evaluate((d) => (d as HTMLDetailsElement).open)))
    await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await expectFocus(page, "admin-key");
  await page.keyboard.type(adminKey);
  await page.keyboard.press("Enter");
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id);

/** The ids focus reaches pressing Tab `n` times from where it is: the page's order as a keyboard meets it. */
export async function tabOrder(page: Page, n: number): Promise<(string | undefined)[]> {
  const ids = [];
  for (let i = 0; i < n; i++) {
    await page.keyboard.press("Tab");
    ids.push(await focusedId(page));
  }
  return ids;
}

async function expectFocus(page: Page, id: string) {
  const focused = await focusedId(page);
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
