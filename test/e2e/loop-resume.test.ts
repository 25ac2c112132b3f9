import type { Page, Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { SessionState } from "../../shared/session/session.ts";
import { newPage, useSite } from "../helpers/e2e.ts";
import type { StoredMessage } from "../../shared/session/session-events.ts";

/**
 * The agent loop resumes: the page goes away between steps, after the model's reply with
 * tool calls and before the next completion; on restore the loop goes on from the stored step, and
 * each tool call id runs once. The built widget, the real worker, the demo model's skin consult.
 */
const demo = useSite();

const q = (page: Page, sel: string) => page.locator(`parley-chat ${sel}`);
const sessionKey = () => `parley:session:${demo.siteKey}:derm-consult`;

async function openPanel() {
  const t = await newPage(demo);
  await t.page.goto(demo.url + "/");
  await q(t.page, "button.l").click();
  await q(t.page, "textarea").waitFor();
  return t;
}

async function send(page: Page, text: string) {
  await q(page, "textarea").fill(text);
  await q(page, "textarea").press("Enter");
}

/** The session as the worker holds it (its log folded), and its trace, read with the page's own token. */
async function stored(page: Page): Promise<SessionState> {
  return page.evaluate(async (key) => {
    const { sessionId, token } = JSON.parse(localStorage.getItem(key)!);
    const headers = { authorization: `Bearer ${token}` };
    const [session, trace] = await Promise.all([
      fetch(`/v1/sessions/${sessionId}`, { headers }).then((r) => r.json()),
      fetch(`/v1/sessions/${sessionId}/trace`, { headers }).then((r) => r.json()),
    ]);
    return { ...session.state, trace: trace.trace };
  }, sessionKey());
}

const lastStep = (s: SessionState) => s.messages.filter((m) => m.role === "assistant").at(-1)!;
const toolResults = (s: SessionState, callId: string) =>
  s.messages.filter((m: StoredMessage) => m.role === "tool" && m.toolCallId === callId);

/** Holds requests matching `match` (they never reach the worker) until the test lets them go. */
function hold(page: Page, url: string, match: (route: Route) => boolean) {
  const held: Route[] = [];
  let on = true;
  void page.route(url, (route) => {
    if (on && match(route)) held.push(route);
    else void route.continue();
  });
  return { held, release: () => void (on = false) };
}

describe("the agent loop resumes after a reload between steps", () => {
  it("an edge tool that ran before the reload is answered from the worker's record, not run again", async () => {
    const { context, page, errors } = await openPanel();
    // The tool call reaches the worker and runs, but its answer never reaches the page: the page goes away.
    const answered: string[] = [];
    await page.route("**/v1/tools/knowledge_search", async (route) => {
      const res = await route.fetch();
      answered.push(await res.text());
      if (answered.length > 1) await route.fulfill({ response: res });
    });
    await send(page, "How should I care for acne-prone skin?");
    await expect.poll(() => answered.length).toBe(1);
    const before = await stored(page);
    const step = lastStep(before);
    const callId = step.toolCalls![0].id;
    expect(step.toolCalls![0].function.name).toBe("knowledge_search");
    expect(toolResults(before, callId)).toHaveLength(0);

    await page.reload();
    await q(page, "button.l").click();
    // Restored, the loop goes on by itself: the same call id, answered from the worker's record, then the answer.
    const reply = q(page, '.msg[data-role="assistant"] .md').last();
    await expect.poll(() => reply.textContent()).toContain("gentle and consistent");
    await q(page, "button.send.stop").waitFor({ state: "detached" });
    expect(answered).toHaveLength(2);
    expect(JSON.parse(answered[1])).toMatchObject({ replayed: true, result: JSON.parse(answered[0]).result });
    const after = await stored(page);
    // Ran once (one run in the owner's trace, one answer from the record), one result in the log.
    const runs = after.trace.filter((t) => t.name === "knowledge_search" && t.detail?.callId === callId);
    expect(runs.map((t) => !!t.detail?.replayed)).toEqual([false, true]);
    expect(toolResults(after, callId)).toHaveLength(1);
    expect(after.messages.at(-1)).toMatchObject({ role: "assistant", status: "complete" });
    expect(after.messages.filter((m) => m.role === "user")).toHaveLength(1);
    await page.screenshot({ path: "test-results/e2e-loop-resume-edge.png" });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("browser tools whose results were recorded do not run again; the next completion follows", async () => {
    const { context, page, errors } = await openPanel();
    // The step after the tools never leaves the page: its completion is held until the page is gone.
    let completions = 0;
    const next = hold(page, "**/v1/chat/completions", () => ++completions === 2);
    const recorded: StoredMessage[][] = [];
    page.on("request", (r) => {
      if (!r.url().endsWith("/events") || r.method() !== "POST") return;
      const events = (r.postDataJSON() as { events: Array<{ data: { message?: StoredMessage } }> }).events;
      recorded.push(events.flatMap((e) => (e.data.message?.role === "tool" ? [e.data.message] : [])));
    });
    await send(page, "I have a red itchy rash on my arm");
    await expect.poll(() => next.held.length).toBe(1);
    // Both record_advice results are in the worker's log before the page goes away.
    const calls = lastStep(await stored(page)).toolCalls!;
    expect(calls.map((c) => c.function.name)).toEqual(["record_advice", "record_advice"]);
    await expect
      .poll(async () => {
        const s = await stored(page);
        return calls.map((c) => toolResults(s, c.id).length);
      })
      .toEqual([1, 1]);
    const ranBefore = recorded.flat().length;
    expect(ranBefore).toBe(2);

    next.release();
    await page.reload();
    await q(page, "button.l").click();
    const reply = q(page, '.msg[data-role="assistant"] .md').last();
    await expect.poll(() => reply.textContent()).toContain("two advice cards");
    await q(page, "button.send.stop").waitFor({ state: "detached" });
    // No tool ran after the reload (nothing new recorded), the cards are there once each.
    expect(recorded.flat()).toHaveLength(ranBefore);
    const after = await stored(page);
    expect(calls.map((c) => toolResults(after, c.id).length)).toEqual([1, 1]);
    expect(after.advice.map((a) => a.title)).toEqual(["Soothe and protect the skin", "When to see a dermatologist"]);
    await expect.poll(() => q(page, "article.card").count()).toBe(2);
    expect(after.messages.at(-1)).toMatchObject({ role: "assistant", status: "complete" });
    await page.screenshot({ path: "test-results/e2e-loop-resume-client.png" });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("two tabs going on from the same stored step ask for one reply: the second follows the first's", async () => {
    const a = await openPanel();
    // Tab A's step after the tools waits (held in the page) while tab B opens and goes on from the stored step.
    let completions = 0;
    const next = hold(a.page, "**/v1/chat/completions", () => ++completions === 2);
    await send(a.page, "I have a red itchy rash on my arm");
    await expect.poll(() => next.held.length).toBe(1);
    const step = lastStep(await stored(a.page));
    await expect.poll(async () => toolResults(await stored(a.page), step.toolCalls![1].id).length).toBe(1);
    const b = await a.context.newPage();
    await b.goto(demo.url + "/");
    await q(b, "button.l").click();
    const replyOf = (page: Page) => q(page, '.msg[data-role="assistant"] .md').last();
    await expect.poll(() => replyOf(b).textContent()).toContain("two advice cards");
    // Tab A's request goes now: the same reply id, answered 409, and A follows the reply B started.
    const conflict = a.page.waitForResponse((r) => r.url().endsWith("/v1/chat/completions"));
    next.release();
    await next.held[0].continue();
    expect((await conflict).status()).toBe(409);
    await expect.poll(() => replyOf(a.page).textContent()).toContain("two advice cards");
    await q(a.page, "button.send.stop").waitFor({ state: "detached" });
    const after = await stored(a.page);
    const replies = after.messages.filter((m) => m.role === "assistant");
    expect(replies.map((m) => m.id)).toEqual([step.id, `${step.id}+`]);
    const completed = after.trace.filter((t) => t.kind === "completion" && t.detail?.replyId === `${step.id}+`);
    expect(completed).toHaveLength(1);
    expect(a.errors).toEqual([]);
    await a.context.close();
  });
});
