import { mkdirSync } from "node:fs";
import { createServer, type Server as HttpServer } from "node:http";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { DemoScript } from "../../worker/demo/index.ts";
import { DEMO_ADMIN_KEY, newPage, useSite } from "../helpers/e2e.ts";
import { answered } from "../helpers/e2e-waits.ts";
import { axeFindings, openPage, retype, signInByKeyboard } from "../helpers/console.ts";
import { CONSOLE_SHOTS } from "../helpers/browser.ts";
import { GENERIC_SCRIPT } from "../helpers/fake-upstream.ts";
import { serveStatic, type StaticServer } from "../helpers/static-server.ts";

/**
 * The console's MCP servers page as an owner uses it, by keyboard: a real MCP server (the official SDK,
 * started here) added, "test connection" listing its tools, one tool allowed for an agent in the agent
 * editor; then a visitor's conversation calls it through the worker and the trace shows the call.
 * axe-core in English and Chinese. On a site and an agent of the file's own.
 */
const AGENT = `mcp-e2e-${Math.random().toString(36).slice(2, 8)}`;
const ASK = "Where is my order A-1001?";
const SCRIPT: DemoScript = {
  ...GENERIC_SCRIPT,
  turns: [
    {
      when: ["order a-1001"],
      steps: [
        { toolCalls: [{ name: "mcp__orders__lookup_order", arguments: { orderId: "A-1001" } }] },
        { content: "Your order A-1001 has shipped with DHL." },
      ],
    },
    ...GENERIC_SCRIPT.turns,
  ],
};
const demo = useSite({ script: SCRIPT });
const both = (en: string) => ({ en, "zh-CN": en });

let mcp: HttpServer;
let mcpUrl = "";
const calls: string[] = [];
let host: StaticServer;

/** A stateless Streamable HTTP server per request, as a serverless MCP server runs: two tools. */
function orderServer(): Server {
  const server = new Server({ name: "orders", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: "lookup_order",
        description: "Looks up an order's status",
        inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
      },
      { name: "refund_order", description: "Refunds an order", inputSchema: { type: "object" } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    calls.push(req.params.name);
    const orderId = String((req.params.arguments ?? {}).orderId);
    return {
      content: [{ type: "text", text: `Order ${orderId} has shipped` }],
      structuredContent: { orderId, status: "shipped", carrier: "DHL" },
    };
  });
  return server;
}

beforeAll(async () => {
  mcp = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const server = orderServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => void transport.close().catch(() => {}));
    await server.connect(transport);
    await transport.handleRequest(req, res, body ? JSON.parse(body) : undefined);
  });
  await new Promise<void>((r) => mcp.listen(0, "127.0.0.1", r));
  mcpUrl = `http://127.0.0.1:${(mcp.address() as { port: number }).port}/mcp`;
  const agent = {
    id: AGENT,
    name: both("Orders"),
    description: both(""),
    greeting: both("Hi! Ask me about an order."),
    systemPrompt: "You answer questions about orders.",
    model: "gpt-4o-mini",
    tools: [],
  };
  const res = await demo.adminFetch("/v1/admin/agents", { method: "POST", body: JSON.stringify(agent) });
  expect(res.status, await res.clone().text()).toBe(201);
  host = await serveStatic({
    pages: {
      "/orders": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Orders</title></head><body>
<h1>Orders</h1><script src="${demo.url}/parley.js" data-site-key="${demo.siteKey}" data-agent="${AGENT}"
 data-debug="true" async></script></body></html>`,
    },
  });
});
afterAll(async () => {
  await host?.close();
  mcp?.closeAllConnections();
  await new Promise((r) => mcp?.close(r));
});

const q = (p: Page, sel: string) => p.locator(`parley-chat ${sel}`);

describe("the console's MCP servers page", () => {
  it("adds a server, lists its tools, allows one for an agent; a visitor's turn calls it", async () => {
    const { context, page, errors } = await newPage(demo, { bypassCSP: true });
    await signInByKeyboard(page, demo.url, DEMO_ADMIN_KEY, demo.siteKey);
    await page.locator("main h1").waitFor();
    await openPage(page, "MCP servers");
    // The file's site has the demo site's settings: its demo server is listed, by name and secret name only.
    await page.getByRole("article", { name: "warehouse" }).waitFor();

    // A private address is refused at its field before anything is sent.
    await retype(page, "mcp-id", "orders");
    await retype(page, "mcp-url", "https://10.0.0.5/mcp");
    await page.getByRole("button", { name: "Test connection", exact: true }).focus();
    await page.keyboard.press("Enter");
    await page.getByText("private addresses are refused").waitFor();
    expect(await page.locator("#mcp-url").getAttribute("aria-invalid")).toBe("true");

    await retype(page, "mcp-url", mcpUrl);
    await page.getByRole("button", { name: "Test connection", exact: true }).focus();
    await page.keyboard.press("Enter");
    const found = page.locator("form .probe");
    await found.getByText("2 tools, listed from the worker").waitFor();
    expect(await found.locator("code").allTextContents()).toEqual(["lookup_order", "refund_order"]);
    expect(await page.locator("#mcp-url").getAttribute("aria-invalid")).toBeNull();

    await page.locator("#mcp-url").focus();
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    const saved = page.getByRole("article", { name: "orders" });
    await saved.getByText(mcpUrl).waitFor();
    await saved.getByRole("button", { name: "Test connection: orders" }).click();
    await saved.getByText("2 tools, listed from the worker").waitFor();
    mkdirSync(CONSOLE_SHOTS, { recursive: true });
    await page.screenshot({ path: `${CONSOLE_SHOTS}/mcp.png`, fullPage: true });
    expect(await axeFindings(page), "mcp en").toEqual([]);
    await page.getByLabel("Language").selectOption("zh-CN");
    await page.getByRole("heading", { level: 1, name: "MCP 服务器" }).waitFor();
    await saved.getByRole("button", { name: "测试连接: orders" }).click();
    await saved.getByText("2 个工具").waitFor();
    expect(await axeFindings(page), "mcp zh-CN").toEqual([]);
    await page.getByLabel("语言").selectOption("en");

    // The agent editor: the server's tools as checkboxes; one allowed.
    await page.goto(`${demo.url}/console/agents/${AGENT}`);
    const lookup = page.getByRole("checkbox", { name: /orders\/lookup_order/ });
    await lookup.waitFor();
    expect(await page.getByRole("checkbox", { name: /orders\/refund_order/ }).isChecked()).toBe(false);
    await lookup.focus();
    await page.keyboard.press("Space");
    expect(await page.locator("#agent-tools").inputValue()).toBe("mcp__orders__lookup_order");
    await page.getByRole("button", { name: "Save agent", exact: true }).click();
    await page.getByRole("status").filter({ hasText: /Saved/ }).waitFor();
    const stored = await demo.admin("GET", `/v1/admin/agents/${AGENT}`);
    expect(stored.agent.tools).toEqual(["mcp__orders__lookup_order"]);
    expect(errors).toEqual([]);
    await context.close();

    // A visitor asks; the model calls the allowed tool, the worker calls the server, the trace shows it.
    const visitor = await demo.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await visitor.newPage();
    await p.goto(`${host.url}/orders`);
    await q(p, "button.l").click();
    await q(p, "textarea").fill(ASK);
    await q(p, "textarea").press("Enter");
    await answered(p, ASK);
    await expect.poll(() => q(p, ".msg[data-role=assistant]").last().textContent()).toContain("has shipped");
    expect(calls).toEqual(["lookup_order"]);
    await q(p, 'button[data-action="trace"]').click();
    const step = q(p, 'tbody[data-trace-kind="tool"]').filter({ hasText: "mcp__orders__lookup_order" });
    await expect
      .poll(async () => {
        if (await step.count()) return true;
        await q(p, ".trace-head button").click();
        return false;
      })
      .toBe(true);
    expect(await step.first().locator("tr").first().textContent()).toContain("✓ok");
    await visitor.close();
  });
});
