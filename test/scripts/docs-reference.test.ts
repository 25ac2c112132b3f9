import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OpenAPIV3_1 } from "openapi-types";
import { afterAll, describe, expect, it } from "vitest";
import { readOpenApi } from "../../scripts/docs/openapi-source.ts";
import { operationsOf, referencePages } from "../../scripts/docs/reference-pages.ts";
import { stubOf, stubProblems, writeStubs } from "../../scripts/docs/reference-stubs.ts";

const error = (status: string) => ({ $ref: `#/components/responses/Error${status}` });

/** A contract in the shape the worker writes: tags, security, x-error-codes, a shared schema. */
const DOC = {
  openapi: "3.1.0",
  info: { title: "Parley", version: "1", description: "The proxy. Errors answer `{ error }`." },
  components: {
    securitySchemes: {
      sessionBearer: { type: "http", scheme: "bearer", description: "The token (`bearer.<token>` on a socket)" },
      adminKey: { type: "apiKey", in: "header", name: "x-parley-admin-key", description: "The key" },
      consoleCookie: { type: "apiKey", in: "cookie", name: "__Host-parley-console", description: "The cookie" },
    },
    schemas: {
      AgentConfig: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
      ErrorBody: { type: "object", properties: { error: { type: "object" } } },
    },
  },
  paths: {
    "/v1/sessions/{id}/events": {
      post: {
        operationId: "postSessionEvents",
        tags: ["visitor"],
        summary: "Store the widget's tool results",
        description: "Sent with `Authorization: Bearer <token>`; <b>never</b> a planted id.",
        security: [{ sessionBearer: [] }],
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["events"],
                properties: {
                  events: {
                    type: "array",
                    minItems: 1,
                    maxItems: 50,
                    items: {
                      anyOf: [
                        {
                          type: "object",
                          required: ["type", "data"],
                          properties: {
                            type: { type: "string", const: "message.appended" },
                            data: { type: "object", properties: { text: { type: "string", maxLength: 4000 } } },
                          },
                        },
                        {
                          type: "object",
                          properties: {
                            type: { type: "string", const: "trace.step" },
                            kind: { type: "string", enum: ["tool", "stopped"] },
                          },
                        },
                      ],
                    },
                  },
                  note: { anyOf: [{ type: "string", pattern: "^a|b$" }, { type: "null" }] },
                },
              },
            },
          },
        },
        responses: {
          "200": {
            description: "The session's version",
            content: {
              "application/json": { schema: { type: "object", properties: { version: { type: "integer" } } } },
            },
          },
          "400": error("400"),
          "409": error("409"),
        },
        "x-error-codes": { "400": ["invalid_json", "validation_failed"], "409": ["conflict"] },
      },
    },
    "/v1/admin/agents": {
      post: {
        operationId: "postAdminAgents",
        tags: ["admin"],
        summary: "Create an agent",
        security: [{ adminKey: [] }, { consoleCookie: [] }],
        parameters: [],
        requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/AgentConfig" } } } },
        responses: { "201": { description: "Created" } },
        "x-error-codes": {},
      },
    },
    "/v1/admin/brand-new/{x}": {
      get: {
        operationId: "getBrandNew",
        tags: ["admin"],
        summary: "A route no group names yet",
        security: [],
        parameters: [],
        responses: { "200": { description: "Fine", content: { "text/csv": {} } } },
        "x-error-codes": {},
      },
    },
  },
} as unknown as OpenAPIV3_1.Document;

const pageOf = (slug: string) => referencePages(DOC).find((p) => p.slug === slug)!;

describe("the API reference rendered from the contract", () => {
  it("has an overview, then a page per group; a resource no group names still gets a page", () => {
    const pages = referencePages(DOC);
    expect(pages.map((p) => p.slug)).toEqual(["index", "visitor", "admin-site", "admin-brand-new"]);
    expect(pageOf("admin-brand-new").operations).toEqual([
      { label: "GET /v1/admin/brand-new/{x}", anchor: "getBrandNew" },
    ]);
    expect(pageOf("index").markdown).toContain("| [Visitor routes](./visitor.md) | 1 |");
  });

  it("renders an operation: method and path with its id as anchor, auth, parameters, body, answers, codes", () => {
    const md = pageOf("visitor").markdown;
    expect(md).toContain("## `POST /v1/sessions/{id}/events` {#postSessionEvents}");
    expect(md).toContain("**Auth:** [sessionBearer](./index.md#auth-sessionbearer)");
    expect(md).toContain("| `id` | path | string | yes |  |");
    // Nested fields by path; a union of objects labelled by its constant field.
    expect(md).toContain("| `events` | array of (one of 2 objects) | yes | not empty; at most 50 items |");
    expect(md).toContain('| `events[] {type: "message.appended"}.data.text` | string |  | at most 4000 characters |');
    expect(md).toContain('| `events[] {type: "trace.step"}.kind` | string |  | one of `"tool"`, `"stopped"` |');
    // A pipe inside a value is escaped so the table keeps its columns.
    expect(md).toContain("| `note` | string \\| null |  |  |");
    expect(md).toContain("| 400 | error | `invalid_json`, `validation_failed` |");
    expect(md).toContain("| 409 | error | `conflict` |");
    expect(md).toContain("| `version` | integer |  |  |");
  });

  it("shows the contract's text as text: angle brackets outside code are entities, and nothing is read as Vue", () => {
    const md = pageOf("visitor").markdown;
    expect(md).toContain("Sent with `Authorization: Bearer <token>`; &lt;b&gt;never&lt;/b&gt; a planted id.");
    expect(md).toMatch(/^# Visitor routes\n\n::: v-pre\n/);
    expect(md.trimEnd().endsWith(":::")).toBe(true);
  });

  it("links a shared schema to the overview, where it is rendered once, and names either auth scheme", () => {
    const md = pageOf("admin-site").markdown;
    expect(md).toContain("The [AgentConfig](./index.md#schema-agentconfig) schema.");
    expect(md).toContain(
      "**Auth:** [adminKey](./index.md#auth-adminkey) or [consoleCookie](./index.md#auth-consolecookie)",
    );
    const overview = pageOf("index").markdown;
    expect(overview).toContain("### AgentConfig {#schema-agentconfig}");
    expect(overview).toContain('<span id="auth-adminkey">`adminKey`</span> | header `x-parley-admin-key`');
  });

  it("covers every operation of the worker's contract, each once, with every error code it may answer", () => {
    // docs/openapi.json is written by `npm run build` (npm test builds first).
    const doc = readOpenApi();
    const pages = referencePages(doc);
    const listed = pages.flatMap((p) => p.operations.map((o) => o.label));
    const all = operationsOf(doc);
    expect(all.length).toBeGreaterThan(100);
    expect(listed.sort()).toEqual(all.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort());
    for (const o of all) {
      const md = pages.find((p) => p.slug === o.group.slug)!.markdown;
      const section = md.slice(md.indexOf(`{#${o.op.operationId}}`)).split("\n## ")[0];
      for (const codes of Object.values(o.op["x-error-codes"] ?? {}))
        for (const code of codes) expect(section, `${o.op.operationId}: ${code}`).toContain(`\`${code}\``);
    }
  });
});

describe("the API reference's committed stubs", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-reference-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("name the page in front matter, which GitHub shows, and include what the build renders from the contract", () => {
    expect(stubOf(pageOf("visitor"))).toBe(
      [
        "---",
        'title: "Visitor routes"',
        "source: >-",
        "  Rendered from the API contract (docs/openapi.json, which npm run build writes) when the docs site is",
        "  built: read it there, with npm run docs, or at GET /v1/openapi.json of any worker.",
        "---",
        "",
        "<!--@include: ../.vitepress/reference-parts/visitor.md-->",
        "",
      ].join("\n"),
    );
  });

  it("says which are missing, out of date or of no page; writing them leaves none", () => {
    const pages = referencePages(DOC);
    writeFileSync(join(dir, "README.md"), "# API reference\n");
    writeFileSync(join(dir, "visitor.md"), stubOf(pageOf("visitor")));
    writeFileSync(join(dir, "admin-site.md"), "# Admin: site and agents\n");
    writeFileSync(join(dir, "admin-gone.md"), stubOf({ slug: "admin-gone", title: "Admin: gone" }));
    expect(stubProblems(pages, dir)).toEqual([
      { file: "index.md", problem: "missing" },
      { file: "admin-site.md", problem: "out of date" },
      { file: "admin-brand-new.md", problem: "missing" },
      { file: "admin-gone.md", problem: "no such page" },
    ]);
    writeStubs(pages, dir);
    expect(stubProblems(pages, dir)).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(
      ["README.md", "admin-brand-new.md", "admin-site.md", "index.md", "visitor.md"].sort(),
    );
  });

  it("are committed for every page of the worker's contract, and only for those", () => {
    // docs/openapi.json is written by `npm run build:openapi` (npm test's typecheck runs it first).
    expect(stubProblems(referencePages(readOpenApi()))).toEqual([]);
  });
});
