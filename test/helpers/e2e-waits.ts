import type { Download, FrameLocator, Locator, Page } from "playwright-core";
import { expect } from "vitest";

/** What end-to-end tests wait for instead of the clock: a turn answered, animations done, a download's file. */

/**
 * Waits until the visitor's message `text` is answered in the widget under `root` (the page's
 * `parley-chat`, or a frame's `body`): the message is shown, the last message is the assistant's, and
 * nothing streams or waits to be stopped. An event to wait for, however fast or slow the reply.
 */
export async function answered(page: Page | FrameLocator, text: string, root = "parley-chat") {
  const q = (sel: string) => page.locator(`${root} ${sel}`);
  await q('.msg[data-role="user"]').filter({ hasText: text }).last().waitFor();
  const done = async () =>
    (await q(".msg").last().getAttribute("data-role")) === "assistant" &&
    (await q("button.send.stop").count()) === 0 &&
    (await q('[data-streaming="true"]').count()) === 0;
  await expect.poll(done).toBe(true);
}

/**
 * Waits for the next frame (styles just changed start their transitions there), then until the
 * element's finite animations and transitions (its subtree's too) have finished.
 */
export async function settled(locator: Locator): Promise<void> {
  await locator.evaluate(async (el) => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    await Promise.all(
      el
        .getAnimations({ subtree: true })
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    );
  });
}

/** A download's content (the run's browser is reached remotely: the file is read as a stream). */
export async function downloaded(download: Download): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of await download.createReadStream()) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}
