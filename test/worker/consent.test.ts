import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import type { SessionResponse } from "../../shared/wire/api.ts";
import type { ConsentConfig } from "../../shared/session/consent.ts";
import { EVENT_TYPES, HEADERS } from "../../shared/wire/protocol.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { auth, call, readSse, SITE_KEY } from "../helpers/worker/client.ts";
import { putSite, sha256Hex } from "../helpers/worker/sites.ts";
import { pushToIndex } from "../helpers/worker/index-push.ts";
import { bareJpeg } from "../helpers/photo-bytes.ts";
import { demoSite } from "../../worker/demo/index.ts";
import { sessionRoom } from "../../worker/objects.ts";

/**
 * Consent before the first message (a site's or an agent's notice, with a version): no session opens
 * and nothing is stored until the visitor agreed; the worker records `consent.given` with the version
 * and its own time; a browser cannot write that event; a new version is asked again in an open
 * conversation before its next message; photos have their own notice and version.
 */
const ADMIN = "owner-key-" + "c".repeat(20);
const json = async (r: Response) => (await r.json()) as any;
const notice = (version: string): ConsentConfig => ({
  text: { en: "We keep this conversation to answer you.", "zh-CN": "我们保存此对话以便回答您。" },
  privacyUrl: "https://clinic.example/privacy",
  version,
});

async function consentSite(version = "3") {
  return putSite({ adminKeySha256: await sha256Hex(ADMIN), consent: notice(version) });
}

/** Rewrites the site's consent (the owner publishing a new text). */
async function setConsent(siteKey: string, version: string) {
  const site = { ...demoSite, siteKey, adminKeySha256: await sha256Hex(ADMIN), consent: notice(version) };
  await env.CONFIG.put(`site:${siteKey}`, JSON.stringify(site));
  clearConfigCache();
}

const open = (siteKey: string, body: object = {}, agentId = "sales-coach") =>
  call("/v1/sessions", { method: "POST", json: { siteKey, agentId, ...body } });

async function opened(siteKey: string, agentId = "sales-coach", version = "3"): Promise<SessionResponse> {
  const { res } = await open(siteKey, { consent: version }, agentId);
  expect(res.status).toBe(201);
  return json(res);
}

const chat = (s: SessionResponse, id: string) =>
  call("/v1/chat/completions", {
    method: "POST",
    json: { stream: true, messages: [{ id, role: "user", content: "hello" }], parley: { replyId: `r-${id}` } },
    headers: auth(s.token),
  });

const agree = (s: SessionResponse, kind: string, version: string) =>
  call(`/v1/sessions/${s.sessionId}/consent`, { method: "POST", json: { kind, version }, headers: auth(s.token) });

const owner = (path: string) => call(path, { headers: { [HEADERS.adminKey]: ADMIN } });

describe("consent before the first message", () => {
  it("opens no session and stores nothing until the visitor agreed; the refusal carries the notice", async () => {
    const siteKey = await consentSite();
    const { res } = await open(siteKey);
    expect(res.status).toBe(403);
    const { error } = await json(res);
    expect(error.code).toBe("consent_required");
    expect(error.consent).toEqual({ kind: "chat", ...notice("3") });
    // A made-up or old version agrees to nothing (409, with the current notice to show).
    for (const version of ["99", "2"]) {
      const refused = await open(siteKey, { consent: version });
      expect(refused.res.status, version).toBe(409);
      const body = await json(refused.res);
      expect(body.error.code).toBe("consent_version");
      expect(body.error.consent.version).toBe("3");
    }
    const list = await owner(`/v1/admin/sessions?site=${siteKey}`);
    expect((await json(list.res)).sessions).toEqual([]);
  });

  it("records consent.given with the version and the worker's time as the session opens", async () => {
    const siteKey = await consentSite();
    const before = Date.now();
    const s = await opened(siteKey);
    const after = Date.now();
    expect(s.agent.consent).toEqual({ kind: "chat", ...notice("3") });
    expect(s.state.consent?.chat?.version).toBe("3");
    const at = s.state.consent!.chat!.at;
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(after);
    const events = await sessionRoom(env, s.sessionId).getEvents();
    const given = events.map((e) => e.event).filter((e) => e.type === EVENT_TYPES.consentGiven);
    expect(given).toEqual([expect.objectContaining({ at, data: { kind: "chat", version: "3" } })]);
    expect((await chat(s, "u1")).res.status).toBe(200);
  });

  it("refuses a consent event sent by the browser (403) and stores nothing of it", async () => {
    const siteKey = await consentSite();
    const s = await opened(siteKey);
    const room = sessionRoom(env, s.sessionId);
    const before = await room.getState();
    const forged = {
      id: "consent:forged",
      at: 1,
      type: EVENT_TYPES.consentGiven,
      data: { kind: "chat", version: "9" },
    };
    const { res } = await call(`/v1/sessions/${s.sessionId}/events`, {
      method: "POST",
      json: { events: [forged] },
      headers: auth(s.token),
    });
    expect(res.status).toBe(403);
    expect((await json(res)).error.code).toBe("forbidden");
    const after = await room.getState();
    expect(after.version).toBe(before.version);
    expect(after.consent).toEqual(before.consent);
  });

  it("asks a new version again in an open conversation before its next message", async () => {
    const siteKey = await consentSite();
    const s = await opened(siteKey);
    expect((await chat(s, "u1")).res.status).toBe(200);
    await setConsent(siteKey, "4");
    const room = sessionRoom(env, s.sessionId);
    const version = (await room.getState()).version;
    // Every route that stores what the visitor writes waits for the new version.
    const refused = await chat(s, "u2");
    expect(refused.res.status).toBe(403);
    expect((await json(refused.res)).error).toMatchObject({ code: "consent_required", consent: { version: "4" } });
    const feedback = await call(`/v1/sessions/${s.sessionId}/feedback`, {
      method: "POST",
      json: { messageId: "r-u1", rating: "down", comment: "my phone is 555" },
      headers: auth(s.token),
    });
    expect(feedback.res.status).toBe(403);
    expect((await room.getState()).version).toBe(version);
    // The restored page reads the new notice with the agent.
    const restored = await call(`/v1/sessions/${s.sessionId}`, { headers: auth(s.token) });
    expect((await json(restored.res)).agent.consent.version).toBe("4");
    // The old version, or one that never existed, agrees to nothing.
    for (const v of ["3", "5"]) expect((await agree(s, "chat", v)).res.status, v).toBe(409);
    const ok = await agree(s, "chat", "4");
    expect(ok.res.status).toBe(201);
    const [event] = (await json(ok.res)).events;
    expect(event).toMatchObject({ type: EVENT_TYPES.consentGiven, data: { kind: "chat", version: "4" } });
    expect((await room.getState()).consent?.chat).toEqual({ version: "4", at: event.at });
    const answered = await chat(s, "u2");
    expect(answered.res.status).toBe(200);
    await readSse(answered.res);
  });

  it("asks for photos with their own notice and version before the first upload", async () => {
    const siteKey = await consentSite();
    const s = await opened(siteKey, "derm-consult");
    const upload = () =>
      call(`/v1/sessions/${s.sessionId}/photos`, {
        method: "POST",
        body: bareJpeg(),
        headers: { ...auth(s.token), "content-type": "image/jpeg" },
      });
    const refused = await upload();
    expect(refused.res.status).toBe(403);
    const { error } = await json(refused.res);
    expect(error.code).toBe("consent_required");
    expect(error.consent).toMatchObject({ kind: "photo", version: "1", privacyUrl: "https://clinic.example/privacy" });
    expect(error.consent.text.en).toContain("stored privately");
    const listed = await env.PHOTOS.list({ prefix: `photos/${siteKey}/${s.sessionId}/` });
    expect(listed.objects).toHaveLength(0);
    expect((await agree(s, "photo", "2")).res.status).toBe(409);
    expect((await agree(s, "photo", "1")).res.status).toBe(201);
    expect((await upload()).res.status).toBe(201);
    const state = await sessionRoom(env, s.sessionId).getState();
    expect(Object.keys(state.consent ?? {}).sort()).toEqual(["chat", "photo"]);
  });

  it("answers 404 for a kind the agent does not ask, and takes no version from a site without a notice", async () => {
    const siteKey = await consentSite();
    const s = await opened(siteKey, "sales-coach");
    expect((await agree(s, "photo", "1")).res.status).toBe(404);
    const plain = await call("/v1/sessions", {
      method: "POST",
      json: { siteKey: SITE_KEY, agentId: "sales-coach", consent: "3" },
    });
    expect(plain.res.status).toBe(201);
    const body = await json(plain.res);
    expect(body.state.consent).toBeUndefined();
    expect((await agree(body, "chat", "3")).res.status).toBe(404);
  });

  it("shows the owner which version was agreed: the conversation, its JSON and CSV exports", async () => {
    const siteKey = await consentSite();
    const s = await opened(siteKey);
    const chatted = await chat(s, "u1");
    await readSse(chatted.res);
    await chatted.done();
    await pushToIndex(s.sessionId);
    const view = await json((await owner(`/v1/admin/sessions/${s.sessionId}?site=${siteKey}`)).res);
    expect(view.state.consent.chat.version).toBe("3");
    const exported = await owner(`/v1/admin/sessions/${s.sessionId}/export?site=${siteKey}&format=json`);
    expect((await json(exported.res)).consent.chat.version).toBe("3");
    const csv = await (await owner(`/v1/admin/sessions/${s.sessionId}/export?site=${siteKey}&format=csv`)).res.text();
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[1]).toMatch(/,"consent","","chat consent, version 3","",""$/);
    expect(lines[2]).toContain(',"user",');
  });
});
