import { readFileSync } from "node:fs";
import SwaggerParser from "@apidevtools/swagger-parser";
import createClient from "openapi-fetch";
import { generateTypes } from "parley-openapi-types";
import { describe, expect, it } from "vitest";
import type { paths } from "../../dist/openapi/parley-api.ts";
import { DEMO_ADMIN_KEY, useSite } from "../helpers/e2e.ts";

/**
 * The API contract as an outside client uses it: the document the worker serves is the one the
 * build wrote (docs/openapi.json), valid for an outside validator, and the typed client openapi-typescript
 * makes of it (the build's dist/openapi/parley-api.ts, made again here) holds a visitor's conversation
 * and the owner's listing of it, through openapi-fetch alone. On a site of the file's own: its listing
 * holds only this file's conversation.
 */
const demo = useSite();

const ORIGIN = "http://127.0.0.1:5173";

describe("the OpenAPI contract from outside", () => {
  it("is the built document, valid OpenAPI 3.1, and the typed client's types are made from it", async () => {
    const served = await (await fetch(`${demo.url}/v1/openapi.json`)).json();
    expect(served).toEqual(JSON.parse(readFileSync("docs/openapi.json", "utf8")));
    const checked = await SwaggerParser.validate(structuredClone(served));
    expect((checked as { openapi?: string }).openapi).toMatch(/^3\.1\./);
    expect(await generateTypes(served)).toBe(readFileSync("dist/openapi/parley-api.ts", "utf8"));
  });

  it("drives a visitor's conversation and the owner's listing through the typed client", async () => {
    // JSON answers (the chat route streams too, as text/event-stream, when asked to).
    const api = createClient<paths, "application/json">({ baseUrl: demo.url, headers: { origin: ORIGIN } });
    const opened = await api.POST("/v1/sessions", { body: { siteKey: demo.siteKey, agentId: "medical-qa" } });
    expect(opened.response.status).toBe(201);
    const session = opened.data!;
    const visitor = { authorization: `Bearer ${session.token}` };

    const first = await api.POST("/v1/chat/completions", {
      headers: visitor,
      body: { stream: false, messages: [{ id: "m1", role: "user", content: "How much water should I drink a day?" }] },
    });
    expect(first.error).toBeUndefined();
    const reply = first.data!.choices[0].message;
    expect(reply.content ?? reply.tool_calls).toBeTruthy();

    const restored = await api.GET("/v1/sessions/{id}", {
      params: { path: { id: session.sessionId } },
      headers: visitor,
    });
    expect(restored.data?.state).toMatchObject({ sessionId: session.sessionId, agentId: "medical-qa" });

    // An error comes back typed too: the document's ErrorBody, with the code the worker chose.
    const refused = await api.GET("/v1/sessions/{id}", { params: { path: { id: "someone-else" } }, headers: visitor });
    expect(refused.response.status).toBe(403);
    expect(refused.error?.error.code).toBe("forbidden");

    // The site's index takes the new conversation within a few seconds (it is pushed in batches). Each look
    // spends the admin limit (60 a minute): a few a second while the push is due.
    const owner = { "x-parley-admin-key": DEMO_ADMIN_KEY, "cf-connecting-ip": demo.ip };
    await expect
      .poll(
        async () => {
          const list = await api.GET("/v1/admin/sessions", {
            params: { query: { site: demo.siteKey, agent: "medical-qa" } },
            headers: owner,
          });
          return list.data?.sessions.map((s) => s.sessionId) ?? [];
        },
        { interval: 250 },
      )
      .toEqual([session.sessionId]);
    const unsigned = await api.GET("/v1/admin/sessions", { params: { query: { site: demo.siteKey } } });
    expect(unsigned.error?.error.code).toBe("unauthorized");
  });
});
