import { describe, expect, it } from "vitest";
import { createEmitter } from "../../widget/state/events.ts";
import { createChatStore } from "../../widget/state/chat-store.ts";
import { en } from "../../widget/i18n/strings.ts";
import { agreeTo, decline } from "../../widget/privacy/privacy-actions.ts";
import { sessionKey } from "../../widget/state/browser-storage.ts";
import { fakeApi, memoryStorage } from "../helpers/widget/fake-api.ts";

/**
 * The panel's side of consent (the worker's is test/worker/consent.test.ts): a refusal's notice is
 * shown instead of an error, the visitor's message waits for the agreement, the session opens with
 * the version agreed, and the next conversation in this browser opens with it unless it changed.
 */
const until = async (cond: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
};

function setup(version: string, storage = memoryStorage(), newVersion?: string) {
  const api = fakeApi({ consentVersion: version, newConsentVersion: newVersion });
  const store = createChatStore({
    api: "http://parley.test",
    siteKey: "site-key-1",
    agentId: "derm-consult",
    locale: "en",
    strings: en,
    storage,
    fetch: api.fetch,
    emitter: createEmitter(),
  });
  return { store, api, storage };
}

describe("consent in the panel", () => {
  it("shows the notice instead of an error; a message waits and goes once the visitor agreed", async () => {
    const { store, api, storage } = setup("3");
    store.open();
    await until(() => store.consent.value !== null);
    expect(store.consent.value).toMatchObject({ kind: "chat", version: "3" });
    expect(store.error.value).toBeNull();
    expect(store.status.value).toBe("idle");
    await store.send("my rash");
    expect(store.messages.value).toEqual([]);
    expect(api.requests.filter((r) => r.path === "/v1/chat/completions")).toEqual([]);

    await agreeTo(store, store.consent.value!);
    await until(() => store.messages.value.length === 2);
    expect(store.consent.value).toBeNull();
    const opens = api.requests.filter((r) => r.path === "/v1/sessions");
    expect(opens.map((r) => r.body.consent)).toEqual([undefined, undefined, "3"]);
    expect(store.messages.value[0].content).toBe("my rash");
    expect(storage.map.get(sessionKey("site-key-1", "derm-consult") + ":consent")).toBe("3");
  });

  it("opens the next conversation with the version agreed; a new version asks again", async () => {
    const storage = memoryStorage();
    storage.map.set(sessionKey("site-key-1", "derm-consult") + ":consent", "3");
    const same = setup("3", storage);
    same.store.open();
    await until(() => same.store.agent.value !== null);
    expect(same.store.consent.value).toBeNull();
    expect(same.api.requests[0].body.consent).toBe("3");

    // The visitor's next conversation (this one's credentials gone), after the site published version 4.
    storage.map.delete(sessionKey("site-key-1", "derm-consult"));
    const changed = setup("4", storage);
    changed.store.open();
    await until(() => changed.store.consent.value !== null);
    expect(changed.store.consent.value?.version).toBe("4");
    expect(changed.store.agent.value).toBeNull();
  });

  it("asks a new version when the next message is refused, records it, then sends the message", async () => {
    const { store, api } = setup("3", memoryStorage(), "4");
    await agreeTo(store, { kind: "chat", version: "3", text: { en: "", "zh-CN": "" } });
    await until(() => store.agent.value !== null);
    await store.send("my rash again");
    expect(store.consent.value?.version).toBe("4");
    expect(store.error.value).toBeNull();
    await agreeTo(store, store.consent.value!);
    await until(() => store.messages.value.length === 2);
    expect(store.state.value.consent?.chat?.version).toBe("4");
    const consent = api.requests.find((r) => r.path.endsWith("/consent"))!;
    expect(consent).toMatchObject({ method: "POST", auth: "Bearer t1", body: { kind: "chat", version: "4" } });
    expect(store.messages.value.map((m) => m.content)).toEqual(["my rash again", "Hello **there**"]);
  });

  it("declining stores nothing and forgets a version remembered", async () => {
    const storage = memoryStorage();
    storage.map.set(sessionKey("site-key-1", "derm-consult") + ":consent", "2");
    const { store, api } = setup("3", storage);
    store.open();
    await until(() => store.consent.value !== null);
    decline(store);
    expect(storage.map.has(sessionKey("site-key-1", "derm-consult") + ":consent")).toBe(false);
    expect(api.requests.every((r) => r.path === "/v1/sessions")).toBe(true);
    expect(store.agent.value).toBeNull();
  });
});
