import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { api, ApiFailure, session } from "../../console/api.ts";
import type { PromptDiff } from "../../shared/wire/admin-answers.ts";
import type { LabelMove } from "../../shared/admin/prompt-records.ts";
import { HEADERS } from "../../shared/wire/protocol.ts";
import * as ROUTES from "../../shared/wire/routes.ts";

interface Sent {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

const ORIGIN = "https://console.test";
let sent: Sent[] = [];
let answer: () => Response;
const realFetch = globalThis.fetch;

beforeEach(() => {
  sent = [];
  answer = () => Response.json({});
  Object.assign(globalThis, { location: { origin: ORIGIN, href: `${ORIGIN}/console` } });
  globalThis.fetch = (async (input: URL, init: RequestInit) => {
    const body = typeof init.body === "string" ? JSON.parse(init.body) : undefined;
    sent.push({ url: new URL(input), method: init.method!, headers: init.headers as Record<string, string>, body });
    return answer();
  }) as typeof fetch;
  session.value = {
    site: "site-1",
    csrf: "csrf-1",
    expiresAt: Date.now() + 60_000,
    who: { kind: "bootstrap", id: "bootstrap", name: "Admin key", role: "owner" },
  };
});
afterEach(() => {
  globalThis.fetch = realFetch;
  session.value = null;
});

describe("the console's admin client", () => {
  it("builds each call from the route pattern and its parameters, each one encoded", async () => {
    answer = () => Response.json({ path: "derm/system", moves: [] });
    const history = await api.get(ROUTES.adminPromptHistory, { params: { agent: "derm consult", name: "a/b" } });
    expect(history.moves).toEqual([]);
    expect(sent[0].method).toBe("GET");
    expect(sent[0].url.pathname).toBe("/v1/admin/prompts/derm%20consult/a%2Fb/history");
    // Reads carry no CSRF header; only writes do.
    expect(sent[0].headers[HEADERS.csrf]).toBeUndefined();
  });

  it("sends writes with the JSON body and the session's CSRF token, and the query without empty values", async () => {
    await api.put(ROUTES.adminPromptLabel, {
      params: { agent: "derm", name: "system", label: "production" },
      json: { version: 3, why: "rollback" },
    });
    await api.get(ROUTES.adminPromptDiff, {
      params: { agent: "derm", name: "system" },
      query: { from: "production", to: 4, skipped: undefined, empty: "" },
    });
    const [put, diff] = sent;
    expect(put.method).toBe("PUT");
    expect(put.url.pathname).toBe("/v1/admin/prompts/derm/system/labels/production");
    expect(put.headers["content-type"]).toBe("application/json");
    expect(put.headers[HEADERS.csrf]).toBe("csrf-1");
    expect(put.body).toEqual({ version: 3, why: "rollback" });
    expect([...diff.url.searchParams]).toEqual([
      ["from", "production"],
      ["to", "4"],
    ]);
  });

  it("answers undefined for 204, and throws the worker's error with its code and field issues", async () => {
    answer = () => new Response(null, { status: 204 });
    await expect(api.delete(ROUTES.adminKeyRevoke, { params: { key: "k1" } })).resolves.toBeUndefined();
    expect(sent[0].url.pathname).toBe("/v1/admin/keys/k1");

    answer = () =>
      Response.json(
        { error: { code: "conflict", message: "taken", issues: [{ path: "id", message: "taken" }] } },
        { status: 409 },
      );
    const failure = await api.post(ROUTES.adminAgents, { json: {} }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiFailure);
    expect(failure).toMatchObject({ status: 409, code: "conflict", issues: [{ path: "id", message: "taken" }] });
  });

  it("types each answer by method and route, as shared/wire/admin-answers.ts declares it", () => {
    // Checked by the type check (npm run typecheck), not at run time: the answer is the route's, not a cast.
    expectTypeOf(api.get<typeof ROUTES.adminPromptHistory>).returns.resolves.toEqualTypeOf<{
      path: string;
      moves: LabelMove[];
    }>();
    expectTypeOf(api.get<typeof ROUTES.adminPromptDiff>).returns.resolves.toEqualTypeOf<PromptDiff>();
    expectTypeOf(api.delete<typeof ROUTES.adminKeyRevoke>).returns.resolves.toEqualTypeOf<void>();
  });
});
