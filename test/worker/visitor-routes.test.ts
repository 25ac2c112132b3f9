import { env } from "cloudflare:workers";
import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { CLIENT_EVENT_TYPES } from "../../shared/session/client-events.ts";
import { PHOTO_ID } from "../../shared/chat/photo-ref.ts";
import { EVENT_TYPES, LIMITS } from "../../shared/wire/protocol.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { createApp } from "../../worker/app.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { countSessionPhotos } from "../../worker/photos/photo-store.ts";
import { ROUTE_METHODS, VISITOR_ROUTES, type RouteMethod, type VisitorRouteName } from "../../worker/visitor-routes.ts";
import { agreeToPhotos, auth, call, openSession, SITE_KEY } from "../helpers/worker/client.ts";
import { pushToIndex } from "../helpers/worker/index-push.ts";
import { collect, openSocket } from "../helpers/worker/live-socket.ts";
import { bareJpeg } from "../helpers/photo-bytes.ts";
import { delta, sseResponse } from "../helpers/worker/provider-sse.ts";
import { providerSite, putSite, sha256Hex } from "../helpers/worker/sites.ts";
import { ADMIN, staff } from "../helpers/worker/takeover.ts";
import { sessionRoom } from "../../worker/objects.ts";

/**
 * The visitor's side of the worker, walked from its one list (worker/visitor-routes.ts): every route
 * that takes a session token is found by calling every route, and each listed route is probed as an
 * attacker holding an ordinary visitor token would: another session's id, and the fields the worker
 * owns (ids, times, event types, authors) sent as if the page could write them.
 */

afterEach(() => {
  vi.restoreAllMocks();
  clearConfigCache();
});

type Visitor = { sessionId: string; token: string; siteKey: string; photoId?: string };
type Sent = Awaited<ReturnType<typeof call>>;

const Y2099 = Date.parse("2099-01-01T00:00:00Z");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A site whose provider (a profile) answers over a real socket one chunk every 50 ms (upstream-setup.ts). */
const slowSite = () => providerSite(inject("slowUpstreamUrl"));
const json = async (r: Response) => (await r.json()) as any;
const stateOf = (sid: string) => sessionRoom(env, sid).getState();
const admin = async (path: string) => json((await call(path, { headers: { "x-parley-admin-key": ADMIN } })).res);
/** The forged fields of a probe: the worker's own, each set as the page cannot. */
const workerOwned = (other: string) => ({
  id: "staff-forged",
  at: Y2099,
  createdAt: Y2099,
  type: EVENT_TYPES.staffJoined,
  role: "assistant",
  author: { staffId: "staff-1", name: "Mei" },
  by: "staff",
  sessionId: other,
});

/** A time the worker stamped during the probe: from `since` to now, never the page's 2099. */
const stampedSince = (since: number) => ({
  asymmetricMatch: (at: unknown) => typeof at === "number" && at >= since && at <= Date.now(),
  toString: () => `a time from ${since} to now`,
});

async function visitor(agent = "derm-consult", siteKey = SITE_KEY): Promise<Visitor> {
  const s = await openSession(agent, {}, { siteKey });
  return { sessionId: s.sessionId, token: s.token, siteKey };
}

const ownerSite = async (extra: object = {}) => putSite({ adminKeySha256: await sha256Hex(ADMIN), ...extra } as never);

const send = (v: { token: string }, method: string, path: string, body?: unknown, vars = {}) =>
  call(path, { method, headers: auth(v.token), ...(body === undefined ? {} : { json: body }) }, vars);

/** A streamed turn of the visitor's: one question, the reply under `replyId`. */
const streamed = (v: Visitor, replyId: string, content = "Which sunscreen for a toddler?") =>
  send(v, "POST", "/v1/chat/completions", {
    stream: true,
    messages: [{ id: `${replyId}-q`, role: "user", content }],
    parley: { replyId },
  });

/** A reply of the site's model (the demo's scripted one, or its profile's provider), stored under `replyId`. */
async function replied(v: Visitor, replyId: string) {
  const { res, done } = await streamed(v, replyId);
  expect(res.status).toBe(200);
  await res.text();
  await done();
  return v;
}

/** The provider toolCalled's stub answers, a profile of the visitor's site. */
const STUBBED = { id: "stubbed", baseUrl: "https://provider.test/v1" };
const stubbedSite = () => putSite({ providers: [STUBBED] });

/** The provider's reply asking for one of the browser's tools (call_c1, in reply s1); `v`'s site names STUBBED. */
async function toolCalled(v: Visitor) {
  const call1 = { index: 0, id: "call_c1", type: "function", function: { name: "sample_size", arguments: "{}" } };
  // Only the provider's request is answered here: the demo site's webhook deliveries go on as they do.
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith("https://provider.test/")) return real(input, init);
    return sseResponse([
      { choices: [{ index: 0, delta: { tool_calls: [call1] }, finish_reason: null }] },
      { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
    ]);
  });
  await replied(v, "s1");
  vi.restoreAllMocks();
  return v;
}

/** A photo upload; the session's visitor agreed to photos first, as the widget has them do. */
const agreed = new Set<string>();
async function upload(v: Visitor, token = v.token, path = sessionPath(v, "/photos"), type = "image/jpeg") {
  if (!agreed.has(v.sessionId)) {
    await agreeToPhotos(v);
    agreed.add(v.sessionId);
  }
  return call(path, { method: "POST", body: bareJpeg(), headers: { ...auth(token), "content-type": type } });
}

/** A stage workflow's session at its second stage (pico), where the action cards are. */
async function atPico(v: Visitor) {
  const record = { arguments: { values: { research_question: "Does daily emollient use reduce eczema flares?" } } };
  expect((await send(v, "POST", "/v1/tools/record_stage_data", record)).res.status).toBe(200);
  const done = await send(v, "POST", `/v1/sessions/${v.sessionId}/stages/question/complete`);
  expect((await json(done.res)).completed).toBe(true);
  return v;
}

/** A site with takeover and a staff member handling the visitor's conversation. */
async function withPerson(v: Visitor) {
  const mei = await staff(v.siteKey);
  expect((await mei.join(v.sessionId)).status).toBe(200);
  return v;
}

/** A result of the assistant's call call_c1, as the page sends it (its own time, which the worker ignores). */
const toolResult = (id: string, extra: object = {}) => ({
  id: `msg:${id}`,
  at: Y2099,
  type: EVENT_TYPES.messageAppended,
  data: { message: { id, role: "tool", toolCallId: "call_c1", content: '{"n":42}', ...extra } },
});

/** What the owner's index says of a conversation and of today (its list row and its Insights row). */
async function ownerCounts(siteKey: string, sid: string) {
  await pushToIndex(sid);
  const row = (await admin(`/v1/admin/sessions?site=${siteKey}`)).sessions.find((r: any) => r.sessionId === sid);
  const today = (await admin(`/v1/admin/insights?site=${siteKey}`)).rows.find((r: any) => r.agent === "derm-consult");
  expect(row.lastActivityAt).toBeLessThanOrEqual(Date.now());
  const { lastActivityAt: _, ...counts } = row;
  return { row: counts, today };
}

/**
 * Session B's token on session A's address: a request B could make of its own session (`send(b, b.token)`
 * succeeds), refused for A's with a JSON error, and neither session changes.
 */
interface Across {
  pair: () => Promise<[Visitor, Visitor]>;
  send: (target: Visitor, token: string) => Promise<Sent>;
}

const stored = async (v: Visitor) => ({
  version: (await stateOf(v.sessionId)).version,
  photos: await countSessionPhotos(env, v.siteKey, v.sessionId),
});

async function refusedAcross({ pair, send: request }: Across) {
  const [a, b] = await pair();
  const before = [await stored(a), await stored(b)];
  const { res, done } = await request(a, b.token);
  expect([403, 404], `another session's token answered ${res.status}`).toContain(res.status);
  expect(await json(res)).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
  await done();
  expect([await stored(a), await stored(b)]).toEqual(before);
  // The refusal is about whose session it is: the same request of B's own session is answered.
  const own = await request(b, b.token);
  expect(own.res.status, await own.res.text()).toBeLessThan(300);
  await own.done();
}

const pairOf =
  (agent = "derm-consult", site: () => Promise<string> = async () => SITE_KEY) =>
  async () => {
    const siteKey = await site();
    return [await visitor(agent, siteKey), await visitor(agent, siteKey)] as [Visitor, Visitor];
  };
const takeoverSite = () => ownerSite({ takeover: { enabled: true } });
const sessionPath = (v: Visitor, rest = "") => `/v1/sessions/${v.sessionId}${rest}`;

/** A read: answered for the session itself, and nothing stored by reading. */
async function readsOwn(v: Visitor, path: string) {
  const before = await stored(v);
  const { res } = await send(v, "GET", path);
  expect(res.status).toBe(200);
  await res.body?.cancel();
  expect(await stored(v)).toEqual(before);
}

type Probe = { across?: Across; forged: () => Promise<void> };

/** One probe per listed route: a route without one, or with `:id` and no `across`, fails below. */
const PROBES: Record<VisitorRouteName, Probe> = {
  sessions: {
    forged: async () => {
      const a = await visitor();
      const before = await stateOf(a.sessionId);
      const since = Date.now();
      const body = { siteKey: SITE_KEY, agentId: "derm-consult", ...workerOwned(a.sessionId), token: a.token };
      const { res } = await call("/v1/sessions", {
        method: "POST",
        json: { ...body, openedAt: Y2099, expiresAt: Y2099, exp: Y2099 / 1000, state: { stage: { current: "x" } } },
      });
      expect(res.status).toBe(201);
      const opened = await json(res);
      expect(opened.sessionId).toMatch(UUID);
      expect(opened.sessionId).not.toBe(a.sessionId);
      expect(opened.token).not.toBe(a.token);
      expect(opened.expiresAt - LIMITS.sessionTtlSeconds * 1000).toEqual(stampedSince(since - 1000));
      expect((await stateOf(opened.sessionId)).openedAt).toEqual(stampedSince(since));
      expect(await stateOf(a.sessionId)).toEqual(before);
    },
  },

  session: {
    across: { pair: pairOf(), send: (t, token) => send({ token }, "GET", sessionPath(t)) },
    forged: async () => {
      const [a, b] = await pairOf()();
      await readsOwn(a, `${sessionPath(a)}?sessionId=${b.sessionId}`);
      const { res } = await send(a, "GET", `${sessionPath(a)}?sessionId=${b.sessionId}`);
      expect((await json(res)).state.sessionId).toBe(a.sessionId);
      // An erasure with another session's token erases nothing; the session's own erases it whole.
      const refused = await send({ token: b.token }, "DELETE", sessionPath(a));
      expect(refused.res.status).toBeGreaterThanOrEqual(400);
      expect((await stateOf(a.sessionId)).sessionId).toBe(a.sessionId);
      expect((await send(a, "DELETE", `${sessionPath(a)}?sessionId=${b.sessionId}`)).res.status).toBe(204);
      expect((await stateOf(b.sessionId)).sessionId).toBe(b.sessionId);
    },
  },

  sessionConsent: {
    across: {
      pair: pairOf(),
      send: (t, token) => send({ token }, "POST", sessionPath(t, "/consent"), { kind: "photo", version: "1" }),
    },
    forged: async () => {
      const [s] = await pairOf()();
      const since = Date.now();
      const body = { kind: "photo", version: "1", at: Y2099, createdAt: Y2099, type: "message.appended", by: "staff" };
      expect((await send(s, "POST", sessionPath(s, "/consent"), body)).res.status).toBeLessThan(300);
      const photo = (await stateOf(s.sessionId)).consent?.photo;
      expect(photo?.version).toBe("1");
      expect(photo!.at).toBeGreaterThanOrEqual(since);
      expect(photo!.at).toBeLessThan(Y2099);
      // A version the site does not have is refused, and nothing is recorded for it.
      const wrong = await send(s, "POST", sessionPath(s, "/consent"), { kind: "photo", version: "99" });
      expect(wrong.res.status).toBeGreaterThanOrEqual(400);
      expect((await stateOf(s.sessionId)).consent?.photo?.version).toBe("1");
    },
  },

  sessionDownload: {
    across: { pair: pairOf(), send: (t, token) => send({ token }, "GET", sessionPath(t, "/download?format=json")) },
    forged: async () => {
      const [a, b] = await pairOf()();
      await readsOwn(a, `${sessionPath(a, "/download?format=json")}&sessionId=${b.sessionId}`);
      const { res } = await send(a, "GET", `${sessionPath(a, "/download?format=json")}&sessionId=${b.sessionId}`);
      expect(JSON.stringify(await json(res))).not.toContain(b.sessionId);
    },
  },

  sessionEvents: {
    across: {
      pair: async () => {
        const siteKey = await stubbedSite();
        return [
          await toolCalled(await visitor("derm-consult", siteKey)),
          await toolCalled(await visitor("derm-consult", siteKey)),
        ];
      },
      send: (t, token) => send({ token }, "POST", sessionPath(t, "/events"), { events: [toolResult("t1")] }),
    },
    forged: async () => {
      const siteKey = await ownerSite({ providers: [STUBBED] });
      const [s, other] = [await toolCalled(await visitor("derm-consult", siteKey)), await visitor()];
      const before = await ownerCounts(siteKey, s.sessionId);
      const version = (await stateOf(s.sessionId)).version;
      const append = (events: unknown[]) => send(s, "POST", sessionPath(s, "/events"), { events });
      // Event types the worker owns; a result signed by staff, under a staff id or a stored message id.
      const owned = Object.values(EVENT_TYPES).filter((t) => !(CLIENT_EVENT_TYPES as string[]).includes(t));
      // Consent is refused as forbidden outright: only the consent route records it, with the worker's time.
      for (const type of owned)
        expect((await append([{ id: `x:${type}`, at: 1, type, data: {} }])).res.status, type).toBe(
          type === EVENT_TYPES.consentGiven ? 403 : 400,
        );
      expect((await append([toolResult("t1", { author: { name: "Mei" } })])).res.status).toBe(400);
      expect((await append([toolResult("staff-t1")])).res.status).toBe(403);
      expect((await append([toolResult("s1-q")])).res.status).toBe(403);
      expect((await stateOf(s.sessionId)).version).toBe(version);
      // Data the page may write, carrying a time, tokens, timings and another session's id.
      const since = Date.now();
      const tokens = { promptTokens: 987654321, completionTokens: 1, firstByteMs: 999999, side: "client" };
      const step = { ...workerOwned(other.sessionId), id: "trace:call_c1", type: EVENT_TYPES.traceStep };
      const forgedStep = { ...step, data: { kind: "tool", name: "forged", ms: 9e12, ok: false, detail: tokens } };
      const result = toolResult("t1", { at: Y2099 });
      expect((await append([{ ...result, sessionId: other.sessionId }, forgedStep])).res.status).toBe(200);
      const state = await stateOf(s.sessionId);
      expect(state.messages.find((m) => m.id === "t1")).toEqual({
        id: "t1",
        role: "tool",
        toolCallId: "call_c1",
        content: '{"n":42}',
        at: stampedSince(since),
      });
      expect(state.trace.find((t) => t.id === "trace:call_c1")).toEqual({
        id: "trace:call_c1",
        kind: "tool",
        name: "sample_size",
        ms: 3_600_000,
        ok: false,
        detail: { side: "client" },
        at: stampedSince(since),
      });
      expect((await stateOf(other.sessionId)).messages).toEqual([]);
      // The owner's numbers: nothing the page wrote is counted.
      expect(await ownerCounts(siteKey, s.sessionId)).toEqual(before);
    },
  },

  sessionFeedback: {
    across: {
      pair: async () => {
        const [a, b] = await pairOf()();
        return [await replied(a, "a1"), await replied(b, "a1")];
      },
      send: (t, token) => send({ token }, "POST", sessionPath(t, "/feedback"), { messageId: "a1", rating: "up" }),
    },
    forged: async () => {
      const siteKey = await ownerSite();
      const s = await replied(await visitor("derm-consult", siteKey), "a1");
      const other = await replied(await visitor("derm-consult", siteKey), "b1");
      // The other conversation is in the site's counts before they are read, not whenever its push comes.
      await pushToIndex(other.sessionId);
      const before = await ownerCounts(siteKey, s.sessionId);
      const since = Date.now();
      const rate = (body: object) => send(s, "POST", sessionPath(s, "/feedback"), body);
      const forged = { ...workerOwned(other.sessionId), messageId: "a1", rating: "up" };
      // One rating per reply, however often it is given; none of a message that is not this session's reply.
      for (let i = 0; i < 3; i++) {
        const { res } = await rate(forged);
        expect(res.status).toBe(201);
        const [event] = (await json(res)).events;
        expect(event).toMatchObject({ type: EVENT_TYPES.feedbackGiven, at: stampedSince(since) });
        expect(event.id).not.toBe(forged.id);
      }
      for (const messageId of ["a1-q", "b1"]) expect((await rate({ ...forged, messageId })).res.status).toBe(404);
      const state = await stateOf(s.sessionId);
      expect(state.feedback).toEqual({ a1: { rating: "up", at: stampedSince(since) } });
      expect((await stateOf(other.sessionId)).feedback).toEqual({});
      const after = await ownerCounts(siteKey, s.sessionId);
      expect(after.row).toEqual({ ...before.row, feedbackUp: before.row.feedbackUp + 1 });
      expect(after.today).toEqual({ ...before.today, feedbackUp: before.today.feedbackUp + 1 });
    },
  },

  sessionPhotos: {
    across: {
      // Both visitors agreed to photos before the probe counts what changes.
      pair: async () => {
        const pair = await pairOf()();
        for (const v of pair) {
          await agreeToPhotos(v);
          agreed.add(v.sessionId);
        }
        return pair;
      },
      send: (t, token) => upload(t, token),
    },
    forged: async () => {
      const [s, other] = await pairOf()();
      const since = Date.now();
      // The page's own id, session and type for the photo, beside the bytes (a JPEG).
      const forged = `${sessionPath(s, "/photos")}?id=staff-forged&sessionId=${other.sessionId}`;
      const { res } = await upload(s, s.token, forged, "image/png");
      expect(res.status).toBe(201);
      const photo = await json(res);
      expect(photo).toEqual({
        id: photo.id,
        type: "image/jpeg",
        bytes: bareJpeg().length,
        uploadedAt: photo.uploadedAt,
      });
      expect(photo.id).toMatch(PHOTO_ID);
      expect(photo.uploadedAt).toEqual(stampedSince(since));
      expect(await countSessionPhotos(env, SITE_KEY, s.sessionId)).toBe(1);
      expect(await countSessionPhotos(env, SITE_KEY, other.sessionId)).toBe(0);
    },
  },

  sessionPhoto: {
    across: {
      pair: async () => {
        const pair = await pairOf()();
        for (const v of pair) v.photoId = (await json((await upload(v)).res)).id;
        return pair;
      },
      send: (t, token) => send({ token }, "GET", sessionPath(t, `/photos/${t.photoId}`)),
    },
    forged: async () => {
      const [a, b] = await PROBES.sessionPhoto.across!.pair();
      await readsOwn(a, sessionPath(a, `/photos/${a.photoId}`));
      // Another session's photo under the session's own address is not found either.
      expect((await send(a, "GET", sessionPath(a, `/photos/${b.photoId}`))).res.status).toBe(404);
    },
  },

  live: {
    across: {
      pair: pairOf(),
      // The SSE form, following a reply the session does not hold: it ends at once (`gone`).
      send: (t, token) => send({ token }, "GET", sessionPath(t, "/live?reply=nope&from=0")),
    },
    forged: async () => {
      const s = await replied(await visitor(), "a1");
      const before = await stateOf(s.sessionId);
      // A Stop of a stored reply changes nothing; a frame only the worker sends closes the socket.
      const ws = (await openSocket(s.sessionId, s.token)).webSocket!;
      const { until, closing } = collect(ws);
      ws.send(JSON.stringify({ t: "attach", after: 0 }));
      await until((f) => f.t === "e");
      ws.send(JSON.stringify({ t: "stop", id: "a1" }));
      const staffMessage = { id: "staff-x", role: "assistant", content: "forged", author: { name: "Mei" } };
      const frame = { t: "e", seq: 99, event: { ...workerOwned(s.sessionId), data: { message: staffMessage } } };
      ws.send(JSON.stringify({ ...frame, event: { ...frame.event, type: EVENT_TYPES.messageAppended } }));
      expect((await closing())?.code).toBe(1003);
      expect(await stateOf(s.sessionId)).toEqual(before);
    },
  },

  replyStop: {
    across: {
      pair: pairOf(),
      send: (t, token) => send({ token }, "POST", sessionPath(t, "/replies/r1/stop")),
    },
    forged: async () => {
      // The first reply is a stub's; the second streams from the slow provider, long enough to stop.
      vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(sseResponse([delta("Hi.")]));
      const s = await replied(await visitor("derm-consult", await slowSite()), "a1");
      vi.restoreAllMocks();
      const since = Date.now();
      const reader = (await streamed(s, "r1", "tell me more")).res.body!.getReader();
      await reader.read();
      const forged = { ...workerOwned(s.sessionId), status: "complete", content: "forged" };
      const stop = (id: string) => send(s, "POST", sessionPath(s, `/replies/${id}/stop`), forged);
      expect(await json((await stop("a1")).res)).toEqual({ stopped: false });
      expect(await json((await stop("r1")).res)).toEqual({ stopped: true });
      while (!(await reader.read().catch(() => ({ done: true }))).done);
      let state = await stateOf(s.sessionId);
      for (let i = 0; i < 60 && state.messages.find((m) => m.id === "r1")?.status !== "interrupted"; i++) {
        await new Promise((r) => setTimeout(r, 25));
        state = await stateOf(s.sessionId);
      }
      const r1 = state.messages.find((m) => m.id === "r1")!;
      expect(r1).toMatchObject({ role: "assistant", status: "interrupted", at: stampedSince(since) });
      expect(r1.author).toBeUndefined();
      expect(r1.content).not.toContain("forged");
      expect(state.messages.find((m) => m.id === "a1")).toMatchObject({ status: "complete" });
    },
  },

  sessionPerson: {
    across: {
      pair: pairOf("derm-consult", takeoverSite),
      send: (t, token) => send({ token }, "POST", sessionPath(t, "/person"), { reason: "a person please" }),
    },
    forged: async () => {
      const [s, other] = await pairOf("derm-consult", takeoverSite)();
      const since = Date.now();
      const handler = { kind: "person", staffId: "staff-1", name: "Mei", since: Y2099 };
      const body = {
        ...workerOwned(other.sessionId),
        reason: "help",
        status: "with_person",
        handler,
        staffId: "staff-1",
      };
      const { res } = await send(s, "POST", sessionPath(s, "/person"), body);
      expect(res.status).toBe(200);
      const state = await stateOf(s.sessionId);
      expect(state.personRequest).toMatchObject({ by: "visitor", reason: "help", at: stampedSince(since) });
      expect(state.handler).toEqual({ kind: "agent" });
      expect((await stateOf(other.sessionId)).personRequest).toBeNull();
    },
  },

  sessionMessages: {
    across: {
      pair: async () => {
        const [a, b] = await pairOf("derm-consult", takeoverSite)();
        return [await withPerson(a), await withPerson(b)];
      },
      send: (t, token) => send({ token }, "POST", sessionPath(t, "/messages"), { id: "v1", content: "hello" }),
    },
    forged: async () => {
      const [s, other] = await pairOf("derm-consult", takeoverSite)();
      await withPerson(s);
      const since = Date.now();
      const say = (body: object) => send(s, "POST", sessionPath(s, "/messages"), body);
      const forged = { ...workerOwned(other.sessionId), content: "hi", status: "complete" };
      expect((await say({ ...forged, id: "staff-v1" })).res.status).toBe(403);
      expect((await say({ ...forged, id: "v2" })).res.status).toBe(201);
      const state = await stateOf(s.sessionId);
      expect(state.messages).toEqual([{ id: "v2", role: "user", content: "hi", at: stampedSince(since) }]);
      expect((await stateOf(other.sessionId)).messages).toEqual([]);
    },
  },

  sessionContact: {
    across: {
      pair: pairOf("derm-consult", takeoverSite),
      send: (t, token) => send({ token }, "POST", sessionPath(t, "/contact"), { contact: "me@example.com" }),
    },
    forged: async () => {
      const [s, other] = await pairOf("derm-consult", takeoverSite)();
      const since = Date.now();
      const body = {
        ...workerOwned(other.sessionId),
        contact: "me@example.com",
        name: "Ana",
        handler: { kind: "person" },
      };
      expect((await send(s, "POST", sessionPath(s, "/contact"), body)).res.status).toBe(201);
      const state = await stateOf(s.sessionId);
      expect(state.contacts).toEqual([{ contact: "me@example.com", name: "Ana", at: stampedSince(since) }]);
      expect(state.handler).toEqual({ kind: "agent" });
      expect((await stateOf(other.sessionId)).contacts).toEqual([]);
    },
  },

  sessionContext: {
    across: {
      pair: pairOf("protocol-designer"),
      send: (t, token) =>
        send({ token }, "PATCH", sessionPath(t, "/context"), {
          stageId: "question",
          field: "rationale",
          value: "mine",
          baseVersion: 0,
        }),
    },
    forged: async () => {
      const [s, other] = await pairOf("protocol-designer")();
      await readsOwn(s, sessionPath(s, "/context"));
      const since = Date.now();
      const edit = (body: object) =>
        send(s, "PATCH", sessionPath(s, "/context"), { ...workerOwned(other.sessionId), ...body });
      const forged = { stageId: "question", field: "rationale", value: "mine", baseVersion: 0 };
      const { res } = await edit({ ...forged, source: "model", contextVersion: 99, action: { cardId: "registry" } });
      expect(res.status).toBe(200);
      const answer = await json(res);
      expect(answer.contextVersion).toBe(1);
      expect(answer.events).toEqual([
        expect.objectContaining({ type: EVENT_TYPES.contextUpdated, at: stampedSince(since) }),
      ]);
      expect(answer.events[0].data).toEqual({ stageId: "question", values: { rationale: "mine" }, source: "visitor" });
      // A later stage's field, or one the stage does not list, is not the visitor's to write.
      expect((await edit({ ...forged, stageId: "design", field: "blinding", baseVersion: 1 })).res.status).toBe(409);
      expect((await edit({ ...forged, field: "population", baseVersion: 1 })).res.status).toBe(400);
      const state = await stateOf(s.sessionId);
      expect([state.contextVersion, state.context]).toEqual([1, { question: { rationale: "mine" } }]);
      expect((await stateOf(other.sessionId)).contextVersion).toBe(0);
    },
  },

  stageComplete: {
    across: {
      pair: pairOf("protocol-designer"),
      send: (t, token) => send({ token }, "POST", sessionPath(t, "/stages/question/complete")),
    },
    forged: async () => {
      const [s, other] = await pairOf("protocol-designer")();
      const checks = [{ ruleId: "required:research_question", passed: true, action: "block" }];
      const forged = { ...workerOwned(other.sessionId), completed: true, checks, promptChecks: checks };
      const { res } = await send(s, "POST", sessionPath(s, "/stages/question/complete"), {
        ...forged,
        stage: { current: "pico", completed: ["question"], done: false },
      });
      const answer = await json(res);
      expect(answer.completed).toBe(false);
      expect(answer.checks.find((c: any) => c.ruleId === "required:research_question")).toMatchObject({
        passed: false,
      });
      expect((await stateOf(s.sessionId)).stage).toEqual({ current: "question", completed: [], done: false });
      expect((await stateOf(other.sessionId)).trace).toEqual([]);
    },
  },

  action: {
    across: {
      pair: async () => {
        const [a, b] = await pairOf("protocol-designer")();
        return [await atPico(a), await atPico(b)];
      },
      send: (t, token) => send({ token }, "POST", sessionPath(t, "/actions/registry"), { stageId: "pico" }),
    },
    forged: async () => {
      const s = await atPico(await visitor("protocol-designer"));
      const since = Date.now();
      const body = {
        ...workerOwned(s.sessionId),
        stageId: "pico",
        result: { similar_trials: 999999 },
        source: "visitor",
      };
      const { res } = await send(s, "POST", sessionPath(s, "/actions/registry"), body);
      expect(res.status).toBe(200);
      // An api_call card's result is the endpoint's, called by the worker: the posted one is not read.
      const { result } = await json(res);
      expect(result.similar_trials).not.toBe(999999);
      const state = await stateOf(s.sessionId);
      expect(state.context.pico.similar_trials).toBe(result.similar_trials);
      expect(state.actions).toEqual([{ stageId: "pico", cardId: "registry", result, at: stampedSince(since) }]);
    },
  },

  trace: {
    across: { pair: pairOf(), send: (t, token) => send({ token }, "GET", sessionPath(t, "/trace")) },
    forged: async () => {
      const s = await replied(await visitor(), "a1");
      await readsOwn(s, sessionPath(s, "/trace"));
    },
  },

  chat: {
    forged: async () => {
      const prefix = `/visitor/${crypto.randomUUID()}`;
      const vars = { LLM_BASE_URL: `${inject("providerUpstreamUrl")}${prefix}/v1`, LLM_API_KEY: "sk-visitor" };
      const [s, other] = [await visitor(), await visitor()];
      const before = await stateOf(other.sessionId);
      const since = Date.now();
      const forged = { ...workerOwned(other.sessionId), status: "interrupted" };
      const message = { ...forged, id: "u1", role: "user", content: "Which sunscreen for a toddler?" };
      const unlisted = { n: 64, store: true, service_tier: "priority", usage: { total_tokens: 987654321 } };
      const chat = (body: object) => send(s, "POST", "/v1/chat/completions", body, vars);
      const turn = { ...forged, ...unlisted, stream: false, messages: [message] };
      expect((await chat({ ...turn, parley: { replyId: "staff-r1" } })).res.status).toBe(403);
      const { res, done } = await chat({ ...turn, parley: { replyId: "r1" } });
      expect(res.status).toBe(200);
      await res.text();
      await done();
      const log = (await (await fetch(inject("providerLogUrl"))).json()) as Array<{ path: string; body: object }>;
      const seen = log.filter((r) => r.path.startsWith(prefix));
      expect(seen).toHaveLength(1);
      for (const field of [...Object.keys(unlisted), "sessionId", "author", "createdAt"])
        expect(seen[0].body, field).not.toHaveProperty(field);
      const asked = (seen[0].body as { messages: object[] }).messages.at(-1)!;
      expect(Object.keys(asked).sort()).toEqual(["content", "role"]);
      const state = await stateOf(s.sessionId);
      expect(state.messages.map((m) => [m.id, m.role, m.author])).toEqual([
        ["u1", "user", undefined],
        ["r1", "assistant", undefined],
      ]);
      for (const m of state.messages) expect(m.at).toEqual(stampedSince(since));
      expect(state.usage.totalTokens).toBeLessThan(987654321);
      expect(await stateOf(other.sessionId)).toEqual(before);
    },
  },

  tool: {
    forged: async () => {
      const [s, other] = [await visitor(), await visitor()];
      const since = Date.now();
      const run = (v: Visitor, query: string) =>
        send(v, "POST", "/v1/tools/knowledge_search", {
          ...workerOwned(other.sessionId),
          arguments: { query },
          callId: "k1",
          ms: 999999,
          ok: false,
          side: "client",
        });
      expect((await run(s, "sunscreen for toddlers")).res.status).toBe(200);
      const step = (await stateOf(s.sessionId)).trace.find((t) => t.kind === "tool")!;
      expect(step).toMatchObject({ name: "knowledge_search", ok: true, detail: { side: "edge", callId: "k1" } });
      expect(step.at).toEqual(stampedSince(since));
      expect(step.ms).toBeLessThan(999999);
      expect(step.id).not.toBe("staff-forged");
      // A call id names a run of this session only: another session's k1 runs afresh, not A's answer.
      const { res } = await run(other, "eczema cream");
      expect(res.status).toBe(200);
      expect(await json(res)).not.toHaveProperty("replayed");
    },
  },
};

/** A route pattern's address: `:id` the session's own, any other parameter (and `*`) a placeholder. */
function fill(pattern: string, sessionId: string): string {
  return pattern
    .replace(/:(\w+)(\{[^}]*\})?/g, (_, name) => (name === "id" ? sessionId : "probe"))
    .replace("*", "probe");
}

const freshIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 256)).join(".")}`;

/** The status a route answers (from `ip`: the walk's calls spend no other test's rate). */
async function statusOf(method: RouteMethod, path: string, ip: string, headers: Record<string, string> = {}) {
  const { res, done } = await call(path, { method, headers: { ...headers, "cf-connecting-ip": ip } });
  // The live channel answers a GET with a stream that never ends.
  await res.body?.cancel();
  await done();
  return res.status;
}

/** Whether a route refuses a call without credentials (401) and takes the visitor's token (anything else). */
async function takesToken(method: RouteMethod, path: string, token: string, ip: string) {
  return (await statusOf(method, path, ip)) === 401 && (await statusOf(method, path, ip, auth(token))) !== 401;
}

const key = (name: string, method: string) => `${method} ${name}`;
const listed = (token: boolean) =>
  Object.entries(VISITOR_ROUTES).flatMap(([name, r]) => (r.token === token ? r.methods.map((m) => key(name, m)) : []));

describe("the routes a visitor's token can call are the listed ones", () => {
  it("every route the app serves is in the routes table (so the walk below reaches it)", () => {
    const declared = new Set<string>(Object.values(ROUTES));
    const served = createApp().routes.filter((r) => (ROUTE_METHODS as readonly string[]).includes(r.method));
    expect(served.length).toBeGreaterThan(Object.keys(VISITOR_ROUTES).length);
    const undeclared = new Set(served.filter((r) => !declared.has(r.path)).map((r) => `${r.method} ${r.path}`));
    expect([...undeclared]).toEqual([]);
  });

  it("a route answering 401 without credentials and not to a visitor token is listed, as each listed is", async () => {
    const v = await visitor();
    const found: string[] = [];
    for (const [name, pattern] of Object.entries(ROUTES)) {
      // One address per route: its ten calls stay within the admin routes' rate of an address.
      const ip = freshIp();
      const path = fill(pattern, v.sessionId);
      const taken = await Promise.all(ROUTE_METHODS.map((method) => takesToken(method, path, v.token, ip)));
      found.push(...ROUTE_METHODS.filter((_, i) => taken[i]).map((method) => key(name, method)));
    }
    expect(found.sort()).toEqual(listed(true).sort());
    // Token-less by design: answered without credentials.
    for (const k of listed(false)) {
      const [method, name] = k.split(" ") as [RouteMethod, keyof typeof ROUTES];
      expect(await statusOf(method, fill(ROUTES[name], v.sessionId), freshIp()), k).not.toBe(401);
    }
  }, 60_000);

  it("every listed route has a probe, and each with a session in its address an `across` probe", () => {
    expect(Object.keys(PROBES).sort()).toEqual(Object.keys(VISITOR_ROUTES).sort());
    const addressed = (Object.keys(VISITOR_ROUTES) as VisitorRouteName[]).filter((n) => ROUTES[n].includes(":id"));
    expect(addressed.filter((n) => !PROBES[n].across)).toEqual([]);
  });
});

describe("a visitor's token writes data, never what the worker owns", () => {
  for (const name of Object.keys(VISITOR_ROUTES) as VisitorRouteName[]) {
    const { across, forged } = PROBES[name];
    if (across)
      it(
        `${name}: another session's token is refused, and neither session changes`,
        () => refusedAcross(across),
        20_000,
      );
    it(`${name}: ${VISITOR_ROUTES[name].owns} stay the worker's`, forged, 20_000);
  }
});
