import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { auth, call, openSession } from "../helpers/worker/client.ts";
import { putSite, sha256Hex } from "../helpers/worker/sites.ts";
import { sseResponse, delta } from "../helpers/worker/provider-sse.ts";
import { clearConfigCache } from "../../worker/config/config-store.ts";
import { compile, PromptCompileError, variablesOf } from "../../worker/prompts/template.ts";
import { unifiedDiff } from "../../worker/prompts/unified-diff.ts";
import { clearPromptCache } from "../../worker/prompts/agent-prompt-cache.ts";
import { promptRegistry } from "../../worker/objects.ts";

afterEach(() => {
  vi.restoreAllMocks();
  clearConfigCache();
  clearPromptCache();
});

const json = async (r: Response) => (await r.json()) as any;
const ADMIN = "owner-key-" + "p".repeat(20);
const H = { "x-parley-admin-key": ADMIN };
const admin = (path: string, init: RequestInit & { json?: unknown } = {}) =>
  call(path, { ...init, headers: { ...H, ...(init.headers as Record<string, string>) } });
/** A site of the owner's; its provider is a profile, answered by a test's stub. */
const site = async () =>
  putSite({ adminKeySha256: await sha256Hex(ADMIN), providers: [{ id: "test", baseUrl: "https://provider.test/v1" }] });

describe("compile(vars)", () => {
  const t = {
    text: "Hello {{ name }}, about {{topic}}: {{name}}.",
    variables: variablesOf("Hello {{ name }}, about {{topic}}: {{name}}."),
    path: "a/b",
  };

  it("fills every placeholder", () => {
    expect(t.variables).toEqual(["name", "topic"]);
    expect(compile(t, { name: "Ana", topic: "price" })).toBe("Hello Ana, about price: Ana.");
  });

  it("names a missing variable instead of compiling an empty string", () => {
    expect(() => compile(t, { name: "Ana" })).toThrow(PromptCompileError);
    expect(() => compile(t, { name: "Ana" })).toThrow(/a\/b needs variable "topic"/);
  });

  it("names an unknown variable", () => {
    expect(() => compile(t, { name: "Ana", topic: "x", tone: "warm" })).toThrow(/a\/b has no variable "tone"/);
  });
});

describe("unifiedDiff", () => {
  it("prints hunks with context, and nothing for equal texts", () => {
    const a = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"].join("\n");
    const b = a.replace("two", "TWO").replace("nine", "nine\nten");
    expect(unifiedDiff(a, a)).toBe("");
    expect(unifiedDiff(a, b, "x@1", "x@2")).toBe(
      [
        "--- x@1",
        "+++ x@2",
        "@@ -1,5 +1,5 @@",
        " one",
        "-two",
        "+TWO",
        " three",
        " four",
        " five",
        "@@ -7,3 +7,4 @@",
        " seven",
        " eight",
        " nine",
        "+ten",
      ].join("\n"),
    );
  });
});

describe("prompt registry admin API", () => {
  it("refuses without the owner key", async () => {
    const siteKey = await site();
    const { res } = await call(`/v1/admin/prompts?site=${siteKey}`);
    expect(res.status).toBe(401);
  });

  it("saves immutable versions, moves labels with a recorded history, diffs; the chat sends production", async () => {
    const siteKey = await site();
    const base = `/v1/admin/prompts/sales-coach/strategies`;
    // The first read seeds version 1 of the agent's parts from its config.
    const compiled0 = await json((await admin(`/v1/admin/agents/sales-coach/system-prompt?site=${siteKey}`)).res);
    expect(compiled0.versions).toEqual({ system: 1, strategies: 1, guidance: 1 });
    expect(compiled0.text).toContain("## Conversation strategies\n- Open with the customer's situation");

    const saved = await admin(`${base}/versions?site=${siteKey}`, {
      method: "POST",
      json: { text: "- Never mention price first.", note: "calmer" },
    });
    expect(saved.res.status).toBe(201);
    expect(await json(saved.res)).toMatchObject({
      version: 2,
      parent: 1,
      author: "owner",
      note: "calmer",
      variables: [],
    });

    const listing = await json((await admin(`${base}?site=${siteKey}`)).res);
    expect(listing.labels).toEqual({ production: 1, latest: 2 });
    expect(listing.versions.map((v: any) => v.version)).toEqual([2, 1]);
    expect((await json((await admin(`${base}/versions/1?site=${siteKey}`)).res)).text).toContain("Close on price");
    expect((await json((await admin(`${base}/versions/latest?site=${siteKey}`)).res)).version).toBe(2);

    const diff = await json((await admin(`${base}/diff?site=${siteKey}&from=production&to=2`)).res);
    expect(diff.diff).toContain("-- Close on price");
    expect(diff.diff).toContain("+- Never mention price first.");

    const moved = await admin(`${base}/labels/production?site=${siteKey}`, {
      method: "PUT",
      json: { version: 2, why: "visitors found it pushy" },
    });
    expect(await json(moved.res)).toMatchObject({
      label: "production",
      from: 1,
      to: 2,
      by: "owner",
      why: "visitors found it pushy",
    });
    await admin(`${base}/labels/v1-release?site=${siteKey}`, { method: "PUT", json: { version: 1, why: "tag" } });
    const history = await json((await admin(`${base}/history?site=${siteKey}&label=production`)).res);
    expect(history.moves.map((m: any) => [m.from, m.to, m.by])).toEqual([
      [1, 2, "owner"],
      [null, 1, "seed"],
    ]);
    expect(history.moves[0].at).toBeGreaterThan(0);
    const all = await json((await admin(`${base}/history?site=${siteKey}`)).res);
    expect(all.moves.map((m: any) => m.label)).toEqual(["v1-release", "production", "latest", "production", "latest"]);

    const list = await json((await admin(`/v1/admin/prompts?site=${siteKey}`)).res);
    expect(list.prompts.find((p: any) => p.path === "sales-coach/strategies")).toMatchObject({
      latest: 2,
      labels: { production: 2, latest: 2, "v1-release": 1 },
    });

    const fetchSpy = vi.spyOn(globalThis, "fetch").mockResolvedValue(sseResponse([delta("ok")]));
    const s = await openSession("sales-coach", {}, { siteKey });
    const c = await call("/v1/chat/completions", {
      method: "POST",
      json: { stream: true, messages: [{ id: "m", role: "user", content: "hi" }] },
      headers: auth(s.token),
    });
    await c.res.text();
    await c.done();
    const system = JSON.parse((fetchSpy.mock.calls[0][1] as RequestInit).body as string).messages[0].content as string;
    expect(system).toContain("- Never mention price first.");
    expect(system).not.toContain("Close on price");
  });

  it.each([
    [
      "a text using an undeclared variable",
      "versions",
      "POST",
      { text: "Hi {{name}}", variables: [] },
      400,
      /uses \{\{name\}\}, which is not declared/,
    ],
    [
      "a declared variable the text never uses",
      "versions",
      "POST",
      { text: "Hi", variables: ["name"] },
      400,
      /"name" is declared but the text never uses it/,
    ],
    [
      "a variable the system prompt may not use",
      "versions",
      "POST",
      { text: "Hi {{tone}}" },
      400,
      /unknown variable \{\{tone\}\}/,
    ],
    ["moving latest by hand", "labels/latest", "PUT", { version: 1, why: "x" }, 400, /follows the newest version/],
    ["removing production", "labels/production", "PUT", { version: null, why: "x" }, 400, /cannot be removed/],
    [
      "a label on a version that does not exist",
      "labels/production",
      "PUT",
      { version: 9, why: "x" },
      404,
      /no version 9/,
    ],
  ])("refuses %s", async (_what, sub, method, body, status, message) => {
    const siteKey = await site();
    await admin(`/v1/admin/agents/sales-coach/system-prompt?site=${siteKey}`);
    const { res } = await admin(`/v1/admin/prompts/sales-coach/system/${sub}?site=${siteKey}`, { method, json: body });
    expect(res.status).toBe(status);
    expect((await json(res)).error.message).toMatch(message);
  });

  it("places {{strategies}} and {{guidance}} where a system text puts them", async () => {
    const siteKey = await site();
    await admin(`/v1/admin/agents/sales-coach/system-prompt?site=${siteKey}`);
    await admin(`/v1/admin/prompts/sales-coach/system/versions?site=${siteKey}`, {
      method: "POST",
      json: { text: "Coach.\nRules:\n{{guidance}}\nHow:\n{{strategies}}", labels: ["production"] },
    });
    const compiled = await json((await admin(`/v1/admin/agents/sales-coach/system-prompt?site=${siteKey}`)).res);
    expect(compiled.text).toMatch(/^Coach\.\nRules:\n- Every product claim[\s\S]*How:\n- Open with/);
    expect(compiled.text).not.toContain("##");
  });

  it("answers 404 for another site's agent and for an unknown version", async () => {
    const siteKey = await putSite({ adminKeySha256: await sha256Hex(ADMIN), agents: ["derm-consult"] });
    expect((await admin(`/v1/admin/prompts/sales-coach/system?site=${siteKey}`)).res.status).toBe(404);
    await admin(`/v1/admin/agents/derm-consult/system-prompt?site=${siteKey}`);
    expect((await admin(`/v1/admin/prompts/derm-consult/system/versions/7?site=${siteKey}`)).res.status).toBe(404);
  });

  it("seeds the desk's own prompts, which compile with their declared variables", async () => {
    const siteKey = await site();
    const review = await promptRegistry(env, siteKey).deskPrompt("strategy-desk/review");
    expect(review.variables).toEqual(["agent", "requests", "diff"]);
    expect(() => compile(review, { agent: "a", requests: "r" })).toThrow(/needs variable "diff"/);
  });
});

describe("the chat path's compiled-prompt cache (stale-while-revalidate, bounded)", () => {
  it("serves fresh, then stale while one refresh runs, then waits past the bound; last good on failure", async () => {
    const { SwrCache } = await import("../../worker/prompts/swr-cache.ts");
    let now = 0;
    let stored = "v1";
    let failing = false;
    let reads = 0;
    const read = async () => {
      reads++;
      if (failing) throw new Error("store down");
      return stored;
    };
    const cache = new SwrCache<string>({ freshMs: 5_000, maxStaleMs: 30_000, now: () => now });
    const refreshes: Promise<unknown>[] = [];
    const get = () => cache.get("k", read, (p) => refreshes.push(p));

    expect((await get()).value).toBe("v1");
    stored = "v2"; // a label move
    now = 4_999;
    expect((await get()).value).toBe("v1");
    expect(reads).toBe(1);
    now = 5_000; // past fresh: this request is served v1 and starts one refresh
    const both = await Promise.all([get(), get()]);
    expect(both.map((r) => r.value)).toEqual(["v1", "v1"]);
    expect(refreshes).toHaveLength(1);
    expect(reads).toBe(2);
    await Promise.all(refreshes);
    expect((await get()).value).toBe("v2");

    stored = "v3";
    now += 30_000; // past the bound: the request waits for the store, never older than 30 s
    expect(await get()).toEqual({ value: "v3", ageMs: 0, stale: false });

    failing = true;
    now += 60_000;
    expect(await get()).toEqual({ value: "v3", ageMs: 60_000, stale: true });
  });

  it("falls back to the agent config's own prompt when the registry cannot be read and nothing is cached", async () => {
    const { agentSystemPrompt } = await import("../../worker/prompts/agent-prompt-cache.ts");
    const { loadAgent } = await import("../../worker/config/config-store.ts");
    const { withDemo } = await import("../../worker/demo/index.ts");
    const agent = (await loadAgent(withDemo(env), "demo-site-key-0001", "sales-coach"))!;
    const broken = {
      ...env,
      PROMPT_REGISTRY: {
        idFromName: () => {
          throw new Error("unavailable");
        },
      },
    } as unknown as typeof env;
    const prompt = await agentSystemPrompt(broken, "some-site-key", agent);
    expect(prompt.versions).toBeNull();
    expect(prompt.text).toContain("You coach a sales representative");
    expect(prompt.text).toContain("Close on price");
  });
});
