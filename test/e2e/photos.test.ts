import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newPage, useSite } from "../helpers/e2e.ts";
import { exifSegment, jpegOrientation, withJpegSegments } from "../helpers/photo-bytes.ts";
import { imageFacts } from "../../worker/photos/image-bytes.ts";

/**
 * Photos in the consult as a visitor sends them (built bundle, local worker, scripted vision model):
 * a phone photo with GPS and a rotate-90° orientation tag is attached by keyboard after the consent
 * line; what is uploaded has no metadata and is upright; the thumbnail shows in the visitor's
 * message and on the advice card the photo's findings became; desktop and a phone viewport.
 */
const demo = useSite();
const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);

/**
 * A JPEG as a phone stores it: pixels landscape (400x200, red left half, blue right half) with an
 * Exif orientation 6 ("rotate 90° clockwise to show") and GPS. Shown right, it is portrait, red on top.
 */
async function phonePhoto(page: Page): Promise<Buffer> {
  const bytes = await page.evaluate(async () => {
    const canvas = new OffscreenCanvas(400, 200);
    const ctx = canvas.getContext("2d")!;
    ctx.fillStyle = "#e00000";
    ctx.fillRect(0, 0, 200, 200);
    ctx.fillStyle = "#0000e0";
    ctx.fillRect(200, 0, 200, 200);
    const blob = await canvas.convertToBlob({ type: "image/jpeg", quality: 0.95 });
    return [...new Uint8Array(await blob.arrayBuffer())];
  });
  return Buffer.from(withJpegSegments(Uint8Array.from(bytes), exifSegment(6)));
}

/** Width, height and the colours at the top and bottom centre of an image the page shows. */
function pixels(page: Page, sel: string) {
  return q(page, sel).evaluate(async (img: HTMLImageElement) => {
    await img.decode();
    const canvas = new OffscreenCanvas(img.naturalWidth, img.naturalHeight);
    const ctx = canvas.getContext("2d")!;
    ctx.drawImage(img, 0, 0);
    const at = (y: number) => [...ctx.getImageData(img.naturalWidth / 2, y, 1, 1).data.slice(0, 3)];
    return { w: img.naturalWidth, h: img.naturalHeight, top: at(10), bottom: at(img.naturalHeight - 10) };
  });
}

async function openClinic(page: Page) {
  await page.goto(demo.url + "/");
  await q(page, "button.l").click();
  await q(page, ".panel").waitFor();
  await q(page, "button.attach").first().waitFor();
}

/** Attach by keyboard: from the text box back to the attach button, Enter, the consent line, Enter. */
async function attachByKeyboard(page: Page, file: Buffer, back = 1) {
  await q(page, "textarea").focus();
  // Back over the camera button too, where there is one (phones).
  for (let i = 0; i < back; i++) await page.keyboard.press("Shift+Tab");
  const focused = await page.evaluate(
    () => document.querySelector("parley-chat")!.shadowRoot!.activeElement?.getAttribute("aria-label") ?? "",
  );
  expect(focused).toBe("Attach a photo");
  await page.keyboard.press("Enter");
  const consent = q(page, ".photo-consent");
  await consent.waitFor();
  expect(await consent.textContent()).toContain("stored privately");
  const chooser = page.waitForEvent("filechooser");
  await consent.getByRole("button", { name: "Continue" }).focus();
  await page.keyboard.press("Enter");
  await (await chooser).setFiles({ name: "IMG_0042.jpg", mimeType: "image/jpeg", buffer: file });
}

/** The session's credentials as the widget keeps them (to read what the worker stored, as the widget does). */
function credentials(page: Page): Promise<{ sessionId: string; token: string }> {
  return page.evaluate(() => {
    for (const store of [localStorage, sessionStorage])
      for (const key of Object.keys(store)) {
        const v = JSON.parse(store.getItem(key) ?? "null");
        if (v && typeof v.token === "string" && typeof v.sessionId === "string") return v;
      }
    throw new Error("no stored session");
  });
}

async function sendPhoto(page: Page, label: string, back = 1) {
  const uploads: string[] = [];
  page.on("response", (r) => {
    if (r.request().method() === "POST" && /\/v1\/sessions\/[^/]+\/photos$/.test(new URL(r.url()).pathname))
      uploads.push(String(r.status()));
  });
  const original = await phonePhoto(page);
  expect(jpegOrientation(original)).toBe(6);
  expect(imageFacts(original)!.metadata).toContain("APP1 Exif");
  await attachByKeyboard(page, original, back);
  await q(page, ".photo-strip img").waitFor();
  await expect.poll(() => q(page, "button.send").isDisabled()).toBe(false);
  expect(uploads).toEqual(["201"]);
  // Upright: portrait, red on top, blue below (the tag was applied to the pixels, then dropped).
  const shown = await pixels(page, ".photo-strip img");
  expect(shown.w).toBeLessThan(shown.h);
  expect(shown.top[0]).toBeGreaterThan(180);
  expect(shown.top[2]).toBeLessThan(80);
  expect(shown.bottom[2]).toBeGreaterThan(180);
  expect(shown.bottom[0]).toBeLessThan(80);

  await q(page, "textarea").fill("Here is the rash on my arm");
  await page.keyboard.press("Enter");
  const thumb = q(page, ".msg[data-role=user] .thumbs img");
  await thumb.waitFor();
  expect(await thumb.getAttribute("src")).toMatch(/^data:image\/jpeg;base64,/);
  const card = q(page, ".card.advice").filter({ has: page.locator(".thumbs img") });
  await card.waitFor();
  expect(await card.locator(".card-title").textContent()).toBe("What your photo shows");
  await q(page, '[data-streaming="true"]').waitFor({ state: "detached" });
  await expect
    .poll(() => q(page, ".msg[data-role=assistant] .bubble").last().textContent())
    .toContain("card with your photo");
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `test-results/e2e-photo-${label}.png` });

  // What the worker stored in R2, read back with the session's token: a JPEG without any metadata
  // segment, GPS or orientation tag (the tag was applied to the pixels, then dropped).
  const id = await thumb.getAttribute("data-photo-id");
  const { sessionId, token } = await credentials(page);
  const url = `${demo.url}/v1/sessions/${sessionId}/photos/${id}`;
  const stored = await fetch(url, { headers: { authorization: `Bearer ${token}`, origin: demo.url } });
  expect(stored.status).toBe(200);
  expect(stored.headers.get("cache-control")).toBe("no-store");
  const sent = new Uint8Array(await stored.arrayBuffer());
  expect(imageFacts(sent)).toEqual({ type: "image/jpeg", metadata: [], animated: false });
  expect(jpegOrientation(sent)).toBeNull();
  expect(Buffer.from(sent).includes("Exif")).toBe(false);
  expect(Buffer.from(sent).includes("Phone")).toBe(false);
  // No public address: without the token the worker answers 401.
  expect((await fetch(url)).status).toBe(401);
}

describe("photos in the consult", () => {
  it(
    "desktop: attach by keyboard after consent; no metadata " + "sent, orientation kept; thumbnail and advice card",
    async () => {
      const { context, page, errors } = await newPage(demo);
      await openClinic(page);
      // A desktop has no camera button (pointer: fine).
      expect(await q(page, "button.attach").count()).toBe(1);
      await sendPhoto(page, "desktop");
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("phone: the camera button is offered; the same photo goes through on a narrow touch screen", async () => {
    const { context, page, errors } = await newPage(demo, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await openClinic(page);
    expect(await q(page, 'button[aria-label="Take a photo"]').count()).toBe(1);
    expect(await q(page, 'input[capture="environment"]').count()).toBe(1);
    await sendPhoto(page, "phone", 2);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("drop and paste onto the composer: several photos up to the limit, one removed before sending", async () => {
    const { context, page, errors } = await newPage(demo);
    await openClinic(page);
    // Files land on the text box as a visitor's drop or paste would deliver them (DataTransfer).
    const deliver = (kind: "drop" | "paste", colours: string[]) =>
      q(page, "textarea").evaluate(
        async (el, [kind, colours]) => {
          const dt = new DataTransfer();
          for (const [i, colour] of (colours as string[]).entries()) {
            const canvas = new OffscreenCanvas(120, 80);
            const ctx = canvas.getContext("2d")!;
            ctx.fillStyle = colour;
            ctx.fillRect(0, 0, 120, 80);
            const blob = await canvas.convertToBlob({ type: "image/png" });
            dt.items.add(new File([blob], `photo-${i}.png`, { type: "image/png" }));
          }
          const init = { bubbles: true, cancelable: true, composed: true };
          el.dispatchEvent(
            kind === "drop"
              ? new DragEvent("drop", { ...init, dataTransfer: dt })
              : new ClipboardEvent("paste", { ...init, clipboardData: dt }),
          );
        },
        [kind, colours] as const,
      );
    await deliver("drop", ["#c00", "#0c0", "#00c", "#cc0"]);
    await q(page, ".photo-consent").getByRole("button", { name: "Continue" }).click();
    await expect.poll(() => q(page, ".photo-strip li").count()).toBe(3);
    expect(await q(page, ".photo-error").textContent()).toContain("up to 3 photos");
    await expect.poll(() => q(page, ".photo-strip li[aria-busy=false]").count()).toBe(3);
    await q(page, ".photo-strip li").first().getByRole("button", { name: "Remove photo" }).click();
    await expect.poll(() => q(page, ".photo-strip li").count()).toBe(2);
    await deliver("paste", ["#0cc"]);
    await expect.poll(() => q(page, ".photo-strip li[aria-busy=false]").count()).toBe(3);
    await q(page, "button.send").click();
    await expect.poll(() => q(page, ".msg[data-role=user] .thumbs img").count()).toBe(3);
    expect(await q(page, ".photo-strip").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a file the browser cannot decode gets a clear message, and nothing is uploaded", async () => {
    const { context, page, errors } = await newPage(demo);
    await openClinic(page);
    let uploads = 0;
    page.on("request", (r) => void (r.method() === "POST" && r.url().includes("/photos") && uploads++));
    await attachByKeyboard(page, Buffer.from("%PDF-1.7\n% not a photo\n"));
    const alert = q(page, ".photo-error");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("can't be read as a photo");
    expect(await alert.getAttribute("role")).toBe("alert");
    expect(uploads).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("an agent that takes no photos has no attach button", async () => {
    const { context, page } = await newPage(demo);
    await page.goto(demo.url + "/qa.html");
    await q(page, "button.l").click();
    await q(page, "textarea").waitFor();
    await expect.poll(() => q(page, ".msg[data-role=assistant]").count()).toBeGreaterThan(0);
    expect(await q(page, "button.attach").count()).toBe(0);
    await context.close();
  });
});
