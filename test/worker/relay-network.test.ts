import { describe, expect, inject, it } from "vitest";
import { env } from "cloudflare:workers";
import { auth, call, openSession, readSse, readSseUntilBroken } from "../helpers/worker/client.ts";
import { GENERIC_REPLY } from "../helpers/fake-upstream.ts";
import { HELD, HELD_AFTER_CHUNKS } from "../helpers/worker/held-reply.ts";
import { providerSite } from "../helpers/worker/sites.ts";
import { sessionRoom } from "../../worker/objects.ts";

/**
 * The relay as it runs in production: the provider's body comes over a real loopback socket, so
 * it is piped natively (and a break keeps what had arrived, which an in-isolate body would not).
 */
const sites = new Map<string, Promise<string>>();
/** A session of a site whose provider (a profile) is the fake at `url`. */
const open = async (url = inject("upstreamUrl")) => {
  if (!sites.has(url)) sites.set(url, providerSite(url));
  return openSession("derm-consult", {}, { siteKey: await sites.get(url)! });
};
const upstreamLog = async () =>
  (await (await fetch(inject("upstreamLogUrl"))).json()) as Array<{
    text: string;
    status?: number;
    aborted: boolean;
    chunks: number;
  }>;
const chat = (token: string, text: string, replyId: string) =>
  call("/v1/chat/completions", {
    method: "POST",
    json: { stream: true, messages: [{ id: `${replyId}-q`, role: "user", content: text }], parley: { replyId } },
    headers: auth(token),
  });
const contentOf = (events: string[]) =>
  events
    .filter((e) => e !== "[DONE]")
    .map((e) => JSON.parse(e))
    .map((c) => c.choices?.[0]?.delta?.content ?? "")
    .join("");

describe("relay over the network", () => {
  it("passes the provider's stream through unchanged and stores the reply once, complete", async () => {
    const s = await open();
    const { res, done } = await chat(s.token, "net: hello", "n1");
    expect(res.status).toBe(200);
    const events = await readSse(res);
    expect(events.at(-1)).toBe("[DONE]");
    expect(contentOf(events)).toBe(GENERIC_REPLY);
    await done();
    const reply = (await sessionRoom(env, s.sessionId).getState()).messages.find((m) => m.id === "n1");
    expect(reply).toMatchObject({ role: "assistant", content: GENERIC_REPLY, status: "complete" });
  });

  it(
    "a provider that breaks off: the client's stream breaks after what came, " +
      "never retried; the partial reply is stored interrupted and traced",
    async () => {
      const s = await open();
      const { res, done } = await chat(s.token, "net: [cut]", "n2");
      expect(res.status).toBe(200);
      const { events, broken } = await readSseUntilBroken(res);
      expect(broken).toBe(true);
      expect(events).not.toContain("[DONE]");
      const received = contentOf(events);
      expect(received.length).toBeGreaterThan(0);
      await done();
      const st = await sessionRoom(env, s.sessionId).getState();
      expect(st.messages.find((m) => m.id === "n2")).toMatchObject({ status: "interrupted", content: received });
      // Part of the reply had been passed on: a retry would repeat it, so there was none.
      expect((await upstreamLog()).filter((r) => r.text === "net: [cut]")).toHaveLength(1);
      expect(st.trace.find((t) => t.kind === "completion" && t.detail?.replyId === "n2")).toMatchObject({
        ok: false,
        detail: { status: "interrupted", retries: 0 },
      });
      // No usage chunk came: the tokens are estimated, and still counted.
      expect(st.usage.completionTokens).toBeGreaterThan(0);
      expect(st.usage.promptTokens).toBeGreaterThan(100); // the system prompt is counted
      expect(st.trace.find((t) => t.kind === "completion" && t.detail?.replyId === "n2")).toMatchObject({
        detail: { estimated: true },
      });
    },
  );

  it("a completed retry of the interrupted reply (same reply id) supersedes it: one message, complete", async () => {
    const s = await open();
    for (let i = 0; i < 2; i++) {
      const { res, done } = await chat(s.token, "net: [cut once] retry me", "n4");
      await readSseUntilBroken(res);
      await done();
    }
    const st = await sessionRoom(env, s.sessionId).getState();
    expect(st.messages.map((m) => [m.id, m.status, m.content])).toEqual([
      ["n4-q", undefined, "net: [cut once] retry me"],
      ["n4", "complete", GENERIC_REPLY],
    ]);
  });

  it("a visitor who goes away stops nothing: the reply streams on and is stored complete", async () => {
    const s = await open(inject("slowUpstreamUrl"));
    const { res } = await chat(s.token, "net: leaving early", "n3");
    const reader = res.body!.getReader();
    let seen = "";
    while (!seen.includes("short")) {
      const next = await reader.read();
      if (next.done) throw new Error("the stream ended before the visitor left");
      seen += new TextDecoder().decode(next.value);
    }
    await reader.cancel();
    const reply = await storedReply(s.sessionId, "n3");
    expect(reply).toMatchObject({ status: "complete", content: GENERIC_REPLY });
    const byProvider = (await upstreamLog()).find((r) => r.text === "net: leaving early");
    expect(byProvider?.aborted).toBe(false);
    expect(byProvider!.chunks).toBeGreaterThan(40);
  }, 15_000);

  it("Stop ends the provider's request; what arrived is stored interrupted", async () => {
    const s = await open(inject("slowUpstreamUrl"));
    // Held by the provider after a few words: still streaming, however long the Stop takes to come.
    const { res } = await chat(s.token, `net: stop me ${HELD}`, "n5");
    const reader = res.body!.getReader();
    let seen = "";
    while (!seen.includes("short")) seen += new TextDecoder().decode((await reader.read()).value);
    const stop = await call(`/v1/sessions/${s.sessionId}/replies/n5/stop`, { method: "POST", headers: auth(s.token) });
    expect(await stop.res.json()).toEqual({ stopped: true });
    while (!(await reader.read().catch(() => ({ done: true }))).done);
    const reply = await storedReply(s.sessionId, "n5");
    expect(reply?.status).toBe("interrupted");
    expect(GENERIC_REPLY.startsWith(reply!.content)).toBe(true);
    expect(reply!.content.length).toBeLessThan(GENERIC_REPLY.length);
    // The provider's request ends when the worker ends it, having sent at most what it sends before it waits.
    const byProvider = () => upstreamLog().then((log) => log.find((r) => r.text === `net: stop me ${HELD}`));
    await expect.poll(async () => (await byProvider())?.aborted, { timeout: 10_000 }).toBe(true);
    expect((await byProvider())!.chunks).toBeLessThanOrEqual(HELD_AFTER_CHUNKS);
  });
});

/** The reply as the session stored it, once it is there (the object stores it when the stream ends). */
async function storedReply(sessionId: string, id: string) {
  for (let i = 0; i < 400; i++) {
    const m = (await sessionRoom(env, sessionId).getState()).messages.find((x) => x.id === id);
    if (m) return m;
    await new Promise((r) => setTimeout(r, 20));
  }
  return undefined;
}
