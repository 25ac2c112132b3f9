import { afterEach, describe, expect, it, vi } from "vitest";
import { auth, call, openSession, readSse } from "../../helpers/worker/client.ts";
import { delta, sseResponse } from "../../helpers/worker/provider-sse.ts";
import { providerSite } from "../../helpers/worker/sites.ts";

afterEach(() => vi.restoreAllMocks());

/** Demo mode: the demo site's MCP server runs inside the worker, so the sales coach's stock tool works offline. */
describe("the demo's MCP tool", () => {
  it("is offered to the demo sales coach and answers from the demo warehouse without any network", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockResolvedValue(sseResponse([delta("ok")]));
    // A copy of the demo site whose provider is a profile, answered by the stub above.
    const s = await openSession("sales-coach", {}, { siteKey: await providerSite("https://provider.test/v1") });
    const turn = await call("/v1/chat/completions", {
      method: "POST",
      headers: auth(s.token),
      json: { stream: true, messages: [{ id: "u1", role: "user", content: "stock?" }] },
    });
    await readSse(turn.res);
    await turn.done();
    const sent = JSON.parse(String((spy.mock.calls[0][1] as RequestInit).body));
    // The sales coach reads its tools from the prompt (text-react): the MCP tool and its schema are there.
    expect(sent.messages[0].content).toContain("mcp__warehouse__product_stock");
    const { res } = await call("/v1/tools/mcp__warehouse__product_stock", {
      method: "POST",
      headers: auth(s.token),
      json: { arguments: { product: "hydra-calm" } },
    });
    expect(await res.json()).toMatchObject({
      result: {
        text: "240 units of hydra-calm in Rotterdam",
        structured: { product: "hydra-calm", units: 240, warehouse: "Rotterdam" },
      },
    });
    // Only the provider was fetched: the MCP server never left the worker.
    expect(spy.mock.calls.map(([u]) => String(u instanceof Request ? u.url : u))).toEqual([
      "https://provider.test/v1/chat/completions",
    ]);
  });
});
