import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ROUTE_PERMISSIONS, type RouteKey } from "../../shared/wire/route-permissions.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { recordAudit } from "../../worker/audit/record-audit.ts";
import { accountsSite, at, auditOf, BOOT_KEY, browserOf, json, member, withKey } from "../helpers/worker/accounts.ts";
import { auth, call, openSession } from "../helpers/worker/client.ts";
import { siteAccounts } from "../../worker/objects.ts";

afterEach(() => {
  vi.restoreAllMocks();
  clearConfigCache();
});

const sqlIn = (siteKey: string, query: string, ...args: SqlStorageValue[]) =>
  runInDurableObject(siteAccounts(env, siteKey), (_o, state) => state.storage.sql.exec(query, ...args).toArray());
const verify = async (siteKey: string) => json(await withKey(siteKey, "GET", "/v1/admin/audit/verify"));

describe("the audit trail", () => {
  it("records every route the permission table marks: who, when, object ids, from where, the outcome", async () => {
    const siteKey = await accountsSite();
    const audited = (Object.keys(ROUTE_PERMISSIONS) as RouteKey[]).filter((k) => ROUTE_PERMISSIONS[k].audit);
    expect(audited.length).toBeGreaterThanOrEqual(20);
    for (const key of audited) {
      const [method, pattern] = key.split(" ");
      const path = pattern.replace(/:(\w+)/g, (_m, name: string) => `x-${name}`);
      const before = Date.now();
      await withKey(siteKey, method, path, method === "GET" || method === "DELETE" ? undefined : {});
      const [entry] = await auditOf(siteKey, `action=${ROUTE_PERMISSIONS[key].audit}`);
      const object = [...pattern.matchAll(/:(\w+)/g)].map((m) => `x-${m[1]}`).join("/");
      expect(entry, key).toMatchObject({ actorKind: "bootstrap", actorName: "Owner", object });
      expect(entry.at).toBeGreaterThanOrEqual(before);
      expect(entry.ip).toMatch(/^10\./);
      expect(["ok", "refused"]).toContain(entry.outcome);
    }
    expect(await verify(siteKey)).toMatchObject({ ok: true });
  });

  it("records sign-ins (failed too), sign-outs; a conversation's reads, export, erasure by id, not words", async () => {
    const siteKey = await accountsSite();
    const signIn = (adminKey: string) =>
      call(at("/v1/console/session"), {
        method: "POST",
        json: { siteKey, adminKey },
        headers: { "user-agent": "AuditTest/1.0" },
      });
    expect((await signIn("not-the-key-000000000000")).res.status).toBe(401);
    const owner = await browserOf((await signIn(BOOT_KEY)).res);
    const s = await openSession("derm-consult", {}, { siteKey });
    const words = "my rash spreads on the left forearm since Tuesday";
    const chat = await call("/v1/chat/completions", {
      method: "POST",
      json: { messages: [{ id: "q1", role: "user", content: words }] },
      headers: auth(s.token),
    });
    expect(chat.res.status).toBe(200);
    await chat.done();
    expect((await owner.get(`/v1/admin/sessions/${s.sessionId}`)).status).toBe(200);
    expect((await owner.get(`/v1/admin/sessions/${s.sessionId}/trace`)).status).toBe(200);
    expect((await owner.get(`/v1/admin/sessions/${s.sessionId}/export?format=csv`)).status).toBe(200);
    expect((await owner.send("DELETE", `/v1/admin/sessions/${s.sessionId}`)).status).toBe(204);
    expect((await owner.send("DELETE", "/v1/console/session")).status).toBe(204);

    const entries = await auditOf(siteKey);
    expect(entries.map((e) => [e.action, e.outcome]).reverse()).toEqual([
      ["sign_in", "refused"],
      ["sign_in", "ok"],
      ["conversation.read", "ok"],
      ["trace.read", "ok"],
      ["conversation.export", "ok"],
      ["conversation.delete", "ok"],
      ["sign_out", "ok"],
    ]);
    expect(entries.filter((e) => e.object === s.sessionId)).toHaveLength(4);
    expect(entries.at(-2)).toMatchObject({ userAgent: "AuditTest/1.0", actorKind: "bootstrap", actorName: "Owner" });
    // The conversation is erased; its entries stay, and none of them holds what the visitor wrote.
    expect((await withKey(siteKey, "GET", `/v1/admin/sessions/${s.sessionId}`)).status).toBe(404);
    const file = await (await withKey(siteKey, "GET", "/v1/admin/audit?format=json")).text();
    expect(file).toContain(s.sessionId);
    expect(file).not.toContain("forearm");
    expect(await verify(siteKey)).toMatchObject({ ok: true });
  });

  it("filters by person, action, object and time, and exports CSV and JSON (the export recorded too)", async () => {
    const siteKey = await accountsSite();
    const mei = (await member(siteKey, "staff", "Mei")).browser;
    await mei.get("/v1/admin/sessions/abc");
    const t = Date.now();
    await mei.get("/v1/admin/sessions/def/trace");
    expect((await auditOf(siteKey, "who=Mei")).map((e) => e.action)).toEqual([
      "trace.read",
      "conversation.read",
      "passkey.add",
      "invitation.accept",
    ]);
    expect((await auditOf(siteKey, `who=${mei.who.id}&object=abc`)).map((e) => e.action)).toEqual([
      "conversation.read",
    ]);
    expect((await auditOf(siteKey, `from=${t}&action=trace.read`)).map((e) => e.object)).toEqual(["def"]);
    const csv = await withKey(siteKey, "GET", "/v1/admin/audit?format=csv&who=Mei");
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      '"seq","at","actorKind","actorId","actorName","action","object","outcome","code","ip","userAgent","prev","hash"',
    );
    expect(lines).toHaveLength(5);
    expect((await auditOf(siteKey))[0]).toMatchObject({ action: "audit.export", object: "csv" });
    const bad = await withKey(siteKey, "GET", "/v1/admin/audit?action=drop_table");
    expect(bad.status).toBe(400);
  });

  it("names the first broken link when an entry is changed, and a gap when one is removed", async () => {
    const siteKey = await accountsSite();
    for (let i = 0; i < 5; i++) await withKey(siteKey, "GET", `/v1/admin/sessions/s${i}`);
    expect(await verify(siteKey)).toEqual({ ok: true, checked: 5 });
    const [third] = await sqlIn(siteKey, "SELECT at FROM audit WHERE seq = 3");
    await sqlIn(siteKey, "UPDATE audit SET object = 'someone-else' WHERE seq = 3");
    expect(await verify(siteKey)).toEqual({
      ok: false,
      checked: 2,
      firstBroken: { seq: 3, at: Number(third.at), reason: "hash" },
    });
    const other = await accountsSite();
    for (let i = 0; i < 4; i++) await withKey(other, "GET", `/v1/admin/sessions/s${i}`);
    await sqlIn(other, "DELETE FROM audit WHERE seq = 2");
    expect((await verify(other)).firstBroken).toMatchObject({ seq: 3, reason: "gap" });
    // The verify route is itself recorded (after the chain it checked).
    expect((await auditOf(other))[0]).toMatchObject({ action: "audit.verify" });
  });

  it("recordAudit(): another feature's entry joins the same chain", async () => {
    const siteKey = await accountsSite();
    await withKey(siteKey, "GET", "/v1/admin/sessions/s1");
    const entry = await recordAudit(env, siteKey, {
      actor: { kind: "key", id: "k1", name: "Erasure script" },
      action: "visitor.erase",
      object: "visitor-42",
    });
    expect(entry).toMatchObject({ seq: 2, action: "visitor.erase", outcome: "ok", object: "visitor-42" });
    expect((await auditOf(siteKey))[0].prev).toBe((await auditOf(siteKey))[1].hash);
    expect(await verify(siteKey)).toMatchObject({ ok: true, checked: 2 });
  });

  it("keeps entries for the audit retention (6 years by default), then purges; the chain still verifies", async () => {
    const siteKey = await accountsSite();
    for (let i = 0; i < 3; i++) await withKey(siteKey, "GET", `/v1/admin/sessions/s${i}`);
    const stub = siteAccounts(env, siteKey);
    const now = Date.now();
    // Five years on: nothing is old enough.
    vi.spyOn(Date, "now").mockReturnValue(now + 5 * 365 * 86_400_000);
    await runInDurableObject(stub, (o) => o.alarm());
    expect(await sqlIn(siteKey, "SELECT COUNT(*) AS n FROM audit")).toEqual([{ n: 3 }]);
    // Six years and a day on: the three go; the purge is itself an entry, chained to what went.
    vi.spyOn(Date, "now").mockReturnValue(now + (6 * 365 + 1) * 86_400_000);
    await runInDurableObject(stub, (o) => o.alarm());
    vi.restoreAllMocks();
    const left = await auditOf(siteKey);
    expect(left.map((e) => [e.seq, e.action, e.object])).toEqual([[4, "audit.purge", "3"]]);
    expect(await verify(siteKey)).toEqual({ ok: true, checked: 1 });
  });
});
