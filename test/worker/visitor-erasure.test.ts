import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import type { SessionResponse } from "../../shared/wire/api.ts";
import type { LiveFrame } from "../../shared/session/live.ts";
import { HEADERS } from "../../shared/wire/protocol.ts";
import { agreeToPhotos, auth, call, openSession, ORIGIN, readSse } from "../helpers/worker/client.ts";
import { pushToIndex } from "../helpers/worker/index-push.ts";
import { collect, openSocket } from "../helpers/worker/live-socket.ts";
import { bareJpeg } from "../helpers/photo-bytes.ts";
import { ADMIN, at, slowProvider, staff, takeoverSite } from "../helpers/worker/takeover.ts";
import { sessionRoom, siteIndex } from "../../worker/objects.ts";

/**
 * The visitor erases their conversation from the widget (DELETE /v1/sessions/:id with its token): the
 * owner's delete, to the last row. Proven by listing what the worker stores: the session object's
 * tables and keys, the site index's rows, KV's keys and R2's objects, before and after.
 */
const json = async (r: Response) => (await r.json()) as any;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const erase = (sid: string, token: string) => call(`/v1/sessions/${sid}`, { method: "DELETE", headers: auth(token) });

/** Every table of the session's object with its row count, its key-value keys, its alarm. */
function roomStorage(sid: string) {
  return runInDurableObject(sessionRoom(env, sid), async (_obj, state) => {
    const { sql } = state.storage;
    const tables = sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
      )
      .toArray()
      .map((r) => r.name);
    const rows = Object.fromEntries(tables.map((t) => [t, sql.exec(`SELECT COUNT(*) AS n FROM "${t}"`).one().n]));
    return { rows, keys: [...(await state.storage.list()).keys()], alarm: await state.storage.getAlarm() };
  });
}

/** The site index's rows, in any table, that name the session anywhere. */
function indexRowsNaming(siteKey: string, sid: string) {
  return runInDurableObject(siteIndex(env, { siteKey }), (_obj, state) => {
    const { sql } = state.storage;
    const tables = sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
      )
      .toArray()
      .map((r) => r.name);
    const found: Record<string, Array<Record<string, unknown>>> = {};
    for (const t of tables) {
      const rows = sql
        .exec<Record<string, SqlStorageValue>>(`SELECT * FROM "${t}"`)
        .toArray()
        .filter((r) => Object.values(r).some((v) => String(v).includes(sid)));
      if (rows.length) found[t] = rows;
    }
    return found;
  });
}

async function kvKeysNaming(sid: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.CONFIG.list({ cursor });
    keys.push(...page.keys.map((k) => k.name).filter((k) => k.includes(sid)));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return keys;
}

async function r2KeysNaming(sid: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.PHOTOS.list({ cursor });
    keys.push(...page.objects.map((o) => o.key).filter((k) => k.includes(sid)));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

/** A consult with a bit of everything: consent to photos, a reply, a photo, its index row and steps. */
async function consult(siteKey: string): Promise<SessionResponse> {
  const s = await openSession("derm-consult", {}, { siteKey });
  await agreeToPhotos(s);
  const up = await call(`/v1/sessions/${s.sessionId}/photos`, {
    method: "POST",
    body: bareJpeg(),
    headers: { ...auth(s.token), "content-type": "image/jpeg" },
  });
  expect(up.res.status).toBe(201);
  const { res, done } = await call("/v1/chat/completions", {
    method: "POST",
    json: { stream: true, messages: [{ id: "u1", role: "user", content: "My arm itches" }], parley: { replyId: "r1" } },
    headers: auth(s.token),
  });
  await readSse(res);
  await done();
  await pushToIndex(s.sessionId);
  return s;
}

describe("the visitor erases their conversation", () => {
  it("leaves no row, key or object of it: session object, index, KV and R2, listed before and after", async () => {
    const siteKey = await takeoverSite();
    const s = await consult(siteKey);
    const kept = await consult(siteKey);
    const before = await roomStorage(s.sessionId);
    expect(before.rows.events).toBeGreaterThan(3);
    expect(Object.keys(await indexRowsNaming(siteKey, s.sessionId)).sort()).toEqual(["sessions", "steps"]);
    expect(await r2KeysNaming(s.sessionId)).toHaveLength(1);

    const { res } = await erase(s.sessionId, s.token);
    expect(res.status).toBe(204);

    const after = await roomStorage(s.sessionId);
    expect(Object.values(after.rows).every((n) => n === 0)).toBe(true);
    expect(after.keys).toEqual([]);
    expect(after.alarm).toBeNull();
    expect(await r2KeysNaming(s.sessionId)).toEqual([]);
    expect(await kvKeysNaming(s.sessionId)).toEqual([]);
    // The one row left naming it is the owner's record that its visitor erased it: the id, who and when.
    const left = await indexRowsNaming(siteKey, s.sessionId);
    expect(Object.keys(left)).toEqual(["erasures"]);
    expect(left.erasures).toEqual([{ sid: s.sessionId, by_whom: "visitor", at: expect.any(Number) }]);
    const owner = await call(`/v1/admin/erasures?site=${siteKey}`, { headers: { [HEADERS.adminKey]: ADMIN } });
    expect((await json(owner.res)).erasures).toEqual([
      { sessionId: s.sessionId, by: "visitor", at: expect.any(Number) },
    ]);
    // The other conversation of the site lost nothing.
    expect((await roomStorage(kept.sessionId)).rows.events).toBe(before.rows.events);
    expect(Object.keys(await indexRowsNaming(siteKey, kept.sessionId)).sort()).toEqual(["sessions", "steps"]);
    expect(await r2KeysNaming(kept.sessionId)).toHaveLength(1);
  });

  it("makes the erased session's token open nothing (404 everywhere), and nothing comes back", async () => {
    const siteKey = await takeoverSite();
    const s = await consult(siteKey);
    expect((await erase(s.sessionId, s.token)).res.status).toBe(204);
    const sid = s.sessionId;
    const tries: Array<[string, RequestInit & { json?: unknown }]> = [
      [`/v1/sessions/${sid}`, {}],
      [`/v1/sessions/${sid}`, { method: "DELETE" }],
      [`/v1/sessions/${sid}/download`, {}],
      [`/v1/sessions/${sid}/download?format=json`, {}],
      [`/v1/sessions/${sid}/live?after=0`, {}],
      [`/v1/sessions/${sid}/consent`, { method: "POST", json: { kind: "photo", version: "1" } }],
      [`/v1/sessions/${sid}/feedback`, { method: "POST", json: { messageId: "r1", rating: "up" } }],
      [`/v1/sessions/${sid}/photos`, { method: "POST", body: bareJpeg(), headers: { "content-type": "image/jpeg" } }],
      [
        "/v1/chat/completions",
        { method: "POST", json: { stream: true, messages: [{ id: "u2", role: "user", content: "again" }] } },
      ],
    ];
    for (const [path, init] of tries) {
      const { res } = await call(path, { ...init, headers: { ...auth(s.token), ...(init.headers ?? {}) } });
      expect(res.status, `${init.method ?? "GET"} ${path}`).toBe(404);
    }
    expect(Object.values((await roomStorage(sid)).rows).every((n) => n === 0)).toBe(true);
    expect(await r2KeysNaming(sid)).toEqual([]);
  });

  it("may be sent from the site's own page: the CORS preflight allows DELETE there", async () => {
    const { res } = await call("/v1/sessions/any", {
      method: "OPTIONS",
      headers: { "access-control-request-method": "DELETE", "access-control-request-headers": "authorization" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(res.headers.get("access-control-allow-methods")).toContain("DELETE");
  });

  it("refuses another session's token (404) and erases nothing", async () => {
    const siteKey = await takeoverSite();
    const a = await consult(siteKey);
    const b = await openSession("derm-consult", {}, { siteKey });
    expect((await erase(a.sessionId, b.token)).res.status).toBe(404);
    const download = await call(`/v1/sessions/${a.sessionId}/download`, { headers: auth(b.token) });
    expect(download.res.status).toBe(404);
    expect((await roomStorage(a.sessionId)).rows.events).toBeGreaterThan(3);
    expect(await r2KeysNaming(a.sessionId)).toHaveLength(1);
    expect((await call(`/v1/sessions/${a.sessionId}`, { headers: auth(a.token) })).res.status).toBe(200);
  });

  it.each([
    ["the visitor's erasure", (sid: string, token: string) => erase(sid, token)],
    [
      "the owner's delete",
      (sid: string, _token: string, siteKey?: string) =>
        call(`/v1/admin/sessions/${sid}?site=${siteKey}`, { method: "DELETE", headers: { [HEADERS.adminKey]: ADMIN } }),
    ],
  ])(
    "%s stops a reply streaming now first, then erases it too: nothing is written after",
    async (_who, del) => {
      const siteKey = await takeoverSite({ enabled: false }, slowProvider());
      const s = await openSession("sales-coach", {}, { siteKey });
      const { res: chat } = await call("/v1/chat/completions", {
        method: "POST",
        json: {
          stream: true,
          messages: [{ id: "q1", role: "user", content: "a long one" }],
          parley: { replyId: "lr" },
        },
        headers: auth(s.token),
      });
      const reader = chat.body!.getReader();
      const started = Date.now();
      // More than a second of the reply: a checkpoint of its text is written down in the object.
      while (Date.now() - started < 1_300) if ((await reader.read()).done) throw new Error("the reply ended first");
      expect((await roomStorage(s.sessionId)).rows.live_reply_parts).toBeGreaterThan(0);
      const { res } = await del(s.sessionId, s.token, siteKey);
      expect(res.status).toBe(204);
      // The chat response ends (its reply was stopped), without hanging.
      const ended = await Promise.race([
        (async () => {
          try {
            while (!(await reader.read()).done);
          } catch {
            /* broken: the reply was cut */
          }
          return true;
        })(),
        sleep(8_000).then(() => false),
      ]);
      expect(ended).toBe(true);
      await sleep(1_500);
      const after = await roomStorage(s.sessionId);
      expect(Object.values(after.rows).every((n) => n === 0)).toBe(true);
      expect(after.alarm).toBeNull();
      const left = Object.keys(await indexRowsNaming(siteKey, s.sessionId));
      expect(left).toEqual(_who === "the owner's delete" ? [] : ["erasures"]);
    },
    30_000,
  );

  it("tells the staff member who has it, live; closes their channel and the visitor's other tab", async () => {
    const siteKey = await takeoverSite();
    const mei = await staff(siteKey);
    const s = await openSession("derm-consult", {}, { siteKey });
    const { res: staffSock } = await call(at(`/v1/admin/live/${s.sessionId}/channel`), {
      headers: { upgrade: "websocket", "sec-websocket-protocol": "parley.v1", cookie: mei.cookie },
    });
    expect(staffSock.status).toBe(101);
    const staffSide = collect(staffSock.webSocket!);
    staffSock.webSocket!.send(JSON.stringify({ t: "attach", after: 0 }));
    const tab = await openSocket(s.sessionId, s.token);
    const otherTab = collect(tab.webSocket!);
    tab.webSocket!.send(JSON.stringify({ t: "attach", after: 0 }));
    expect((await mei.join(s.sessionId)).status).toBe(200);
    await staffSide.until((f) => f.t === "e" && f.event.type === "staff.joined");

    expect((await erase(s.sessionId, s.token)).res.status).toBe(204);
    const told = (f: LiveFrame) => f.t === "erased";
    expect(await staffSide.until(told)).toEqual({ t: "erased", by: "visitor" });
    expect(await otherTab.until(told)).toEqual({ t: "erased", by: "visitor" });
    expect(await staffSide.closing()).toMatchObject({ code: 1000, reason: "erased" });
    // The Live page's lists forget it, and its channel is gone for staff too.
    const live = await json(await mei.get("/v1/admin/live"));
    expect(JSON.stringify(live)).not.toContain(s.sessionId);
    expect((await mei.get(`/v1/admin/live/${s.sessionId}/channel`)).status).toBe(404);
  });
});
