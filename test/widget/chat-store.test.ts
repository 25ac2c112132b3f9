import type { Signal } from "@preact/signals";
import { describe, expect, it } from "vitest";
import type { SessionState } from "../../shared/session/session.ts";
import { createEmitter } from "../../widget/state/events.ts";
import { createChatStore } from "../../widget/state/chat-store.ts";
import { en } from "../../widget/i18n/strings.ts";
import { sessionKey } from "../../widget/state/browser-storage.ts";
import { fakeApi, memoryStorage } from "../helpers/widget/fake-api.ts";

const API = "http://parley.test";
const until = async (cond: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
};

function setup(api = fakeApi(), storage = memoryStorage()) {
  const emitter = createEmitter();
  const events: string[] = [];
  for (const e of ["open", "close", "message", "error"] as const) emitter.on(e, () => events.push(e));
  const store = createChatStore({
    api: API,
    siteKey: "site-key-1",
    agentId: "derm-consult",
    locale: "en",
    strings: en,
    storage,
    fetch: api.fetch,
    emitter,
  });
  return { store, api, storage, events };
}

describe("chat store", () => {
  it("opens a session only when the panel opens, and stores it", async () => {
    const { store, api, storage, events } = setup();
    expect(api.requests).toHaveLength(0);
    store.open();
    await until(() => store.agent.value !== null);
    expect(api.requests.map((r) => r.path)).toEqual(["/v1/sessions"]);
    expect(api.requests[0].body).toEqual({ siteKey: "site-key-1", agentId: "derm-consult", locale: "en" });
    expect(JSON.parse(storage.map.get(sessionKey("site-key-1", "derm-consult"))!)).toMatchObject({
      sessionId: "s1",
      token: "t1",
    });
    expect(events).toEqual(["open"]);
  });

  it("sends, streams, and folds both messages into the session", async () => {
    const { store, api, events } = setup(fakeApi({ reply: ["Hi", " there"], chunkDelayMs: 5 }));
    await store.send("  hello  ");
    expect(store.messages.value.map((m) => [m.role, m.content, m.status])).toEqual([
      ["user", "hello", undefined],
      ["assistant", "Hi there", "complete"],
    ]);
    expect(store.status.value).toBe("idle");
    expect(store.streaming.value).toBeNull();
    const chat = api.requests.find((r) => r.path === "/v1/chat/completions")!;
    expect(chat.auth).toBe("Bearer t1");
    expect(chat.body.messages).toEqual([{ id: store.messages.value[0].id, role: "user", content: "hello" }]);
    expect(chat.body.parley.replyId).toBe(store.messages.value[1].id);
    expect(events.filter((e) => e === "message")).toHaveLength(2);
    expect(store.announcement.value).toContain("Hi there");
  });

  it("runs a compliance agent's finished reply through compliance_check and shows the rep the flag", async () => {
    const plain = setup(fakeApi({ reply: ["it cures", " eczema."] }));
    await plain.store.send("pitch?");
    expect(plain.api.requests.filter((r) => r.path.startsWith("/v1/tools/"))).toEqual([]);

    const { store, api } = setup(fakeApi({ reply: ["it cures", " eczema."], compliance: true }));
    await store.send("pitch?");
    const reply = store.messages.value[1];
    // The text was shown in full as it streamed; the flag comes after.
    expect(reply.content).toBe("it cures eczema.");
    const check = api.requests.find((r) => r.path === "/v1/tools/compliance_check")!;
    expect(check.body).toEqual({ arguments: { text: "it cures eczema.", replyId: reply.id } });
    await until(() => store.transcript.value.some((i) => i.kind === "reply" && i.parts.length > 1));
    const item = store.transcript.value.find((i) => i.kind === "reply")!;
    expect(item.kind === "reply" && item.parts.map((p) => p.kind)).toEqual(["text", "advice"]);
    const flag = item.kind === "reply" ? item.parts[1] : null;
    expect(flag).toMatchObject({
      kind: "advice",
      advice: { category: "compliance", messageId: reply.id, content: "Say instead: it helps soothe eczema." },
    });
  });

  it.each([
    ["native", ["it cures", " eczema."]],
    ["text-react", ["Thought: done.\nFinal Answer: it cures", " eczema."]],
  ] as const)(
    "%s: only the turn's final answer is checked; a tool step costs no compliance request",
    async (strategy, reply) => {
      const { store, api } = setup(fakeApi({ reply: [...reply], compliance: true, toolStepFirst: strategy }));
      await store.send("pitch?");
      const answer = store.messages.value.at(-1)!;
      expect(answer.content).toBe(reply.join(""));
      await until(() => api.requests.some((r) => r.path === "/v1/tools/compliance_check"));
      expect(api.requests.filter((r) => r.path === "/v1/chat/completions")).toHaveLength(2);
      const checks = api.requests.filter((r) => r.path === "/v1/tools/compliance_check");
      expect(checks.map((r) => r.body.arguments)).toEqual([{ text: "it cures eczema.", replyId: answer.id }]);
    },
  );

  it("stop keeps the partial reply, marked interrupted", async () => {
    const { store } = setup(fakeApi({ reply: ["a ", "b ", "c ", "d"], chunkDelayMs: 30 }));
    const sending = store.send("go");
    await until(() => store.streaming.value?.text === "a ");
    store.stop();
    await sending;
    expect(store.messages.value[1]).toMatchObject({ role: "assistant", content: "a ", status: "interrupted" });
    expect(store.status.value).toBe("idle");
  });

  it("restores a stored session on mount and replaces one the worker no longer knows", async () => {
    const storage = memoryStorage();
    const key = sessionKey("site-key-1", "derm-consult");
    storage.setItem(key, JSON.stringify({ sessionId: "old", token: "told", expiresAt: Date.now() + 60_000 }));
    const ok = fakeApi();
    ok.stored.push(
      { id: "m1", role: "user", content: "earlier", at: 1 },
      { id: "m0", role: "system", content: "x", at: 0 },
      { id: "m2", role: "assistant", content: "reply", at: 2 },
    );
    const a = setup(ok, storage);
    await until(() => a.store.messages.value.length === 2);
    expect(ok.requests[0]).toMatchObject({ method: "GET", path: "/v1/sessions/old", auth: "Bearer told" });
    expect(a.store.messages.value.map((m) => m.content)).toEqual(["earlier", "reply"]);

    const gone = fakeApi({ sessionStatus: 404 });
    const b = setup(gone, storage);
    await until(() => gone.requests.length === 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(storage.getItem(key)).toBeNull();
    expect(gone.sessionCount()).toBe(0); // no new session until the visitor opens the panel
    b.store.open();
    await until(() => gone.sessionCount() === 1);
  });

  it("shows a kind error for error codes and can retry", async () => {
    const api = fakeApi({ chatError: { status: 429, code: "rate_limited" } });
    const { store, events } = setup(api);
    await store.send("hello");
    expect(store.status.value).toBe("error");
    expect(store.error.value?.code).toBe("rate_limited");
    expect(store.error.value?.text).toMatch(/a little fast/);
    expect(events).toContain("error");
    expect(store.messages.value).toHaveLength(1);
  });

  it("tells the host of stage moves until it is disposed, and then of nothing", async () => {
    const stages: Array<string | null> = [];
    const emitter = createEmitter();
    const own = createChatStore({
      api: API,
      siteKey: "k",
      agentId: "a",
      locale: "en",
      strings: en,
      storage: null,
      fetch: fakeApi().fetch,
      emitter,
    });
    emitter.on("stage", (s) => stages.push(s.current));
    // A stage workflow's config, as far as the notifications read it; the store's signals are read-only
    // to components, and written here as the session would.
    const agent = own.agent as Signal<unknown>;
    const state = own.state as Signal<SessionState>;
    agent.value = { id: "a", tools: [], stages: [{ id: "pico" }] };
    const move = (current: string) =>
      (state.value = { ...state.value, stage: { current, completed: [], done: false } });
    move("pico");
    move("design");
    own.dispose();
    move("endpoints");
    expect(stages).toEqual(["pico", "design"]);
  });

  it("while a person handles the chat, the visitor's message goes to them and no model turn runs", async () => {
    const { store, api } = setup();
    await store.send("hello");
    const joined = { id: "staff:1", at: 5, type: "staff.joined", data: { staffId: "s1", name: "Mei" } };
    store.stageApi.session.apply([joined as never]);
    const chats = api.requests.filter((r) => r.path === "/v1/chat/completions").length;
    await store.send("for Mei");
    expect(api.requests.at(-1)).toMatchObject({ path: "/v1/sessions/s1/messages", body: { content: "for Mei" } });
    expect(api.requests.filter((r) => r.path === "/v1/chat/completions")).toHaveLength(chats);
    expect(store.status.value).toBe("idle");
    expect(store.messages.value.at(-1)?.content).toBe("for Mei");
  });

  it("a turn refused because a person took over (taken_over) is no error: the page reads the session", async () => {
    const { store, api } = setup(fakeApi({ chatError: { status: 409, code: "taken_over" } }));
    await store.send("hello");
    await until(() => api.requests.some((r) => r.method === "GET" && r.path === "/v1/sessions/s1"));
    expect(store.error.value).toBeNull();
    expect(store.status.value).toBe("idle");
  });

  it("a message for a person who has handed back (409 not_taken_over) goes to the agent instead", async () => {
    const api = fakeApi();
    const fetch = async (input: string, init?: RequestInit) =>
      input.endsWith("/messages")
        ? new Response(JSON.stringify({ error: { code: "not_taken_over", message: "handed back" } }), { status: 409 })
        : api.fetch(input, init);
    const { store } = setup({ ...api, fetch });
    await store.send("hello");
    store.stageApi.session.apply([
      { id: "staff:1", at: 5, type: "staff.joined", data: { staffId: "s1", name: "Mei" } } as never,
    ]);
    const chats = () => api.requests.filter((r) => r.path === "/v1/chat/completions").length;
    await store.send("still there?");
    await until(() => chats() === 2);
    await until(() => store.status.value === "idle");
    expect(store.error.value).toBeNull();
    expect(store.messages.value.at(-1)?.role).toBe("assistant");
  });

  it("keep nothing: after the worker erased it, the page carries the conversation into a new one", async () => {
    const gone = new Set<string>();
    const { store, api } = setup(fakeApi({ keepNothingMinutes: 5, gone, reply: ["Keep it dry."] }));
    await store.send("my arm itches");
    // The site's minutes pass: the worker erased session s1, whose token now finds nothing.
    gone.add("t1");
    await store.send("and now it is red");
    await until(() => store.status.value === "idle" && store.messages.value.length === 4);
    expect(store.error.value).toBeNull();
    expect(store.messages.value.map((m) => [m.role, m.content])).toEqual([
      ["user", "my arm itches"],
      ["assistant", "Keep it dry."],
      ["user", "and now it is red"],
      ["assistant", "Keep it dry."],
    ]);
    // A new session was opened, and the model got the conversation so far from the page.
    const chats = api.requests.filter((r) => r.path === "/v1/chat/completions");
    expect(chats.map((c) => c.auth)).toEqual(["Bearer t1", "Bearer t1", "Bearer t2"]);
    expect(chats[2].body.messages.map((m: { content: string }) => m.content)).toEqual([
      "my arm itches",
      "Keep it dry.",
      "and now it is red",
    ]);
  });

  it("a site that keeps its conversations: a 404 is an error as before, nothing is carried or reopened", async () => {
    const gone = new Set<string>(["t1"]);
    const { store, api } = setup(fakeApi({ gone }));
    await store.send("hello");
    await until(() => store.status.value === "error");
    expect(store.error.value?.code).toBe("not_found");
    expect(api.requests.filter((r) => r.path === "/v1/sessions")).toHaveLength(1);
    expect(store.messages.value.map((m) => m.content)).toEqual(["hello"]);
  });
});
