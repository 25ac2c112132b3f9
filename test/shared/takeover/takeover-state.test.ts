import { describe, expect, it } from "vitest";
import { emptySession, foldSession, reduceSession } from "../../../shared/session/session.ts";
import { SessionEvent as SessionEventSchema } from "../../../shared/session/session-events.ts";
import { ClientEvent } from "../../../shared/session/client-events.ts";
import { summarizeSession } from "../../../shared/session/session-summary.ts";
import { TakeoverSettings, withinHours } from "../../../shared/config/takeover-config.ts";
import type { SessionEvent } from "../../../shared/session/session-events.ts";

let n = 0;
const ev = (type: string, data: unknown, at = 1000): SessionEvent =>
  ({ id: `t:${++n}`, at, type, data }) as SessionEvent;
const asked = (at = 1000, by = "visitor", reason?: string) =>
  ev("person.requested", { by, ...(reason ? { reason } : {}) }, at);
const joined = (at = 2000, name = "Mei") => ev("staff.joined", { staffId: "s1", name }, at);
const back = (at = 3000) => ev("staff.handed_back", { staffId: "s1", name: "Mei" }, at);

describe("takeover in the shared reducer", () => {
  it("starts with the agent handling and nothing asked", () => {
    const s = emptySession();
    expect(s.handler).toEqual({ kind: "agent" });
    expect(s.personRequest).toBeNull();
    expect(s.contacts).toEqual([]);
  });

  it("queues a request, keeps the first one's time when asked again, and clears it when staff join", () => {
    let s = foldSession([asked(1000, "visitor", "billing question")]);
    expect(s.personRequest).toEqual({ status: "queued", by: "visitor", reason: "billing question", at: 1000 });
    s = reduceSession(s, asked(1500, "agent"));
    expect(s.personRequest?.at).toBe(1000);
    expect(s.personRequest?.by).toBe("visitor");
    s = reduceSession(s, joined(2000));
    expect(s.handler).toEqual({ kind: "person", staffId: "s1", name: "Mei", since: 2000 });
    expect(s.personRequest).toBeNull();
  });

  it("ignores a request while a person handles the chat, and hands back to the agent", () => {
    let s = foldSession([joined(2000)]);
    s = reduceSession(s, asked(2500));
    expect(s.personRequest).toBeNull();
    s = reduceSession(s, back(3000));
    expect(s.handler).toEqual({ kind: "agent" });
    // A new request after the hand back queues again.
    s = reduceSession(s, asked(4000));
    expect(s.personRequest?.status).toBe("queued");
  });

  it("marks a request unavailable with the reason and message, and keeps contacts left", () => {
    const s = foldSession([
      asked(1000),
      ev("person.unavailable", { reason: "outside_hours", message: "We are closed" }, 1001),
      ev("contact.left", { name: "Ana", contact: "ana@example.com", note: "call after 5" }, 1200),
    ]);
    expect(s.personRequest).toMatchObject({
      status: "unavailable",
      unavailable: { reason: "outside_hours", message: "We are closed" },
    });
    expect(s.contacts).toEqual([{ name: "Ana", contact: "ana@example.com", note: "call after 5", at: 1200 }]);
    expect(s.version).toBe(3);
  });

  it("folds onto a state from an older worker that had no takeover fields", () => {
    const { handler: _h, personRequest: _p, contacts: _c, ...old } = emptySession();
    const s = reduceSession(old as never, joined(10));
    expect(s.handler.kind).toBe("person");
    expect(reduceSession(old as never, ev("contact.left", { contact: "x@y.z" }, 5)).contacts).toHaveLength(1);
  });

  it("summarizes a conversation a person took part in as handled by a human, also after the hand back", () => {
    const staffMsg = ev("message.appended", {
      message: {
        id: "staff-1",
        role: "assistant",
        content: "Hi, Mei here",
        author: { staffId: "s1", name: "Mei" },
        at: 2100,
      },
    });
    expect(summarizeSession(foldSession([joined()])).handledBy).toBe("human");
    expect(summarizeSession(foldSession([joined(), staffMsg, back()])).handledBy).toBe("human");
    expect(summarizeSession(foldSession([asked()])).handledBy).toBe("agent");
  });

  it("is the worker's alone: a widget cannot append takeover events", () => {
    for (const e of [asked(), joined(), back(), ev("contact.left", { contact: "a@b.cd" })]) {
      expect(SessionEventSchema.safeParse(e).success).toBe(true);
      expect(ClientEvent.safeParse(e).success).toBe(false);
    }
    expect(SessionEventSchema.safeParse(ev("person.requested", { by: "staff" })).success).toBe(false);
    const signed = { id: "m1", role: "tool", toolCallId: "c1", content: "ok", at: 1 };
    const tool = (message: object) => ({ id: "msg:m1", at: 1, type: "message.appended", data: { message } });
    expect(ClientEvent.safeParse(tool(signed)).success).toBe(true);
    expect(ClientEvent.safeParse(tool({ ...signed, author: { staffId: "s", name: "Mei" } })).success).toBe(false);
  });
});

describe("opening hours", () => {
  const hours = { timeZone: "Asia/Shanghai", windows: [{ days: [1, 2, 3, 4, 5], from: "09:00", to: "17:30" }] };
  // 2026-11-23 is a Monday.
  const at = (iso: string) => Date.parse(iso);

  it("reads the time in the site's zone", () => {
    expect(withinHours(hours, at("2026-11-23T01:00:00Z"))).toBe(true); // 09:00 Monday in Shanghai
    expect(withinHours(hours, at("2026-11-23T00:59:00Z"))).toBe(false); // 08:59
    expect(withinHours(hours, at("2026-11-23T09:29:00Z"))).toBe(true); // 17:29
    expect(withinHours(hours, at("2026-11-23T09:30:00Z"))).toBe(false); // 17:30: closed
    expect(withinHours(hours, at("2026-11-22T03:00:00Z"))).toBe(false); // Sunday 11:00
  });

  it("counts a window past midnight to the day it starts on, and is always open without hours", () => {
    const night = { timeZone: "UTC", windows: [{ days: [5], from: "22:00", to: "06:00" }] };
    expect(withinHours(night, at("2026-11-27T23:00:00Z"))).toBe(true); // Friday 23:00
    expect(withinHours(night, at("2026-11-28T05:00:00Z"))).toBe(true); // Saturday 05:00
    expect(withinHours(night, at("2026-11-28T23:00:00Z"))).toBe(false); // Saturday 23:00
    expect(withinHours(undefined, 0)).toBe(true);
  });

  it("is off by default and refuses an unknown time zone", () => {
    expect(TakeoverSettings.parse({})).toEqual({ enabled: false, maxWaitMinutes: 10 });
    const bad = TakeoverSettings.safeParse({ enabled: true, hours: { ...hours, timeZone: "Mars/Olympus" } });
    expect(bad.success).toBe(false);
  });
});
