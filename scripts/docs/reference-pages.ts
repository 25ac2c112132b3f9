// The API reference's pages, rendered from the contract (docs/openapi.json) when the docs are built: an
// overview (auth, errors, shared schemas, the pages) and one page per group of operations, each operation
// with its method, path, auth, parameters, body, answers and error codes. Nothing here is written by hand
// per route, so the reference says what the worker validates with.
import type { OpenAPIV3_1 as OA } from "openapi-types";
import { cell, code, prose, table } from "./markdown-text.ts";
import { groupOf, type ReferenceGroup } from "./reference-groups.ts";
import { notesOf, schemaRows, typeOf, type JsonSchema } from "./schema-rows.ts";

export interface ReferencePage {
  /** File name under docs/reference/ without `.md`; `index` is the overview. */
  slug: string;
  title: string;
  markdown: string;
  /** Operations on the page, in order: `METHOD /path` and the anchor of each. */
  operations: { label: string; anchor: string }[];
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

interface Operation {
  method: string;
  path: string;
  op: OA.OperationObject & { "x-error-codes"?: Record<string, string[]> };
  group: ReferenceGroup;
}

// The operation's id is its anchor, so a link to an operation survives a change of its path.
const anchorOf = (o: Operation) => o.op.operationId ?? `${o.method}${o.path.replace(/[^A-Za-z0-9]+/g, "-")}`;
const schemaAnchor = (name: string) => `schema-${name.toLowerCase()}`;
const authAnchor = (name: string) => `auth-${name.toLowerCase()}`;
// Group pages sit beside the overview, so one relative link serves both (and the dead-link check sees it).
const schemaLink = (name: string) => `[${name}](./index.md#${schemaAnchor(name)})`;
const asSchema = (s: unknown) => (s ?? {}) as JsonSchema;

/** Every operation of the document, in its order, with the group it belongs to. */
export function operationsOf(doc: OA.Document): Operation[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item?.[m]).map((method) => {
      const op = item![method] as Operation["op"];
      return { method, path, op, group: groupOf(op.tags?.[0] ?? "other", path) };
    }),
  );
}

function fieldTable(schema: JsonSchema): string {
  const rows = schemaRows(schema, schemaLink);
  return table(
    ["field", "type", "required", "notes"],
    rows.map((r) => [code(r.field), r.type, r.required ? "yes" : "", cell(r.notes)]),
  );
}

/** A body's schema: a link to a shared schema, a field table, or the type when it has no fields. */
function bodyOf(schema: JsonSchema): string {
  if (typeof schema.$ref === "string") return `The ${schemaLink(schema.$ref.split("/").pop()!)} schema.`;
  return fieldTable(schema) || `A value of type ${typeOf(schema, schemaLink)}.`;
}

function authOf(security: OA.SecurityRequirementObject[] | undefined): string {
  if (!security || security.length === 0) return "none";
  return security
    .map((req) =>
      Object.keys(req)
        .map((name) => `[${name}](./index.md#${authAnchor(name)})`)
        .join(" + "),
    )
    .join(" or ");
}

function parametersOf(params: OA.OperationObject["parameters"]): string {
  const list = (params ?? []) as OA.ParameterObject[];
  return table(
    ["name", "in", "type", "required", "notes"],
    list.map((p) => {
      const schema = asSchema(p.schema);
      const notes = [p.description, notesOf(schema)].filter(Boolean).join("; ");
      return [code(p.name), p.in, typeOf(schema, schemaLink), p.required ? "yes" : "", cell(notes)];
    }),
  );
}

function requestOf(body: OA.OperationObject["requestBody"]): string {
  if (!body || "$ref" in body) return "";
  const types = Object.keys(body.content);
  const json = body.content["application/json"];
  const lead = [
    `**Body** (${types.map(code).join(", ")}${body.required ? "" : ", optional"})`,
    body.description ? `: ${prose(body.description)}` : "",
  ].join("");
  return json ? `${lead}\n\n${bodyOf(asSchema(json.schema))}` : lead;
}

function answersOf(o: Operation): string {
  const codes = o.op["x-error-codes"] ?? {};
  const entries = Object.entries(o.op.responses ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const rows = entries.map(([status, answer]) => {
    if (codes[status]) return [status, "error", codes[status].map(code).join(", ")];
    const a = answer as OA.ResponseObject;
    const types = Object.keys(a.content ?? {});
    return [status, cell(a.description ?? ""), types.map(code).join(", ")];
  });
  const bodies = entries.flatMap(([status, answer]) => {
    const json = codes[status] ? undefined : (answer as OA.ResponseObject).content?.["application/json"];
    return json ? [`**${status}** body:\n\n${bodyOf(asSchema(json.schema))}`] : [];
  });
  return [`**Answers**`, table(["status", "answer", "content or error codes"], rows), ...bodies].join("\n\n");
}

function operationMarkdown(o: Operation): string {
  const parts = [
    `## ${code(`${o.method.toUpperCase()} ${o.path}`)} {#${anchorOf(o)}}`,
    prose(o.op.summary ?? ""),
    o.op.description ? prose(o.op.description) : "",
    `**Auth:** ${authOf(o.op.security)}`,
    parametersOf(o.op.parameters) ? `**Parameters**\n\n${parametersOf(o.op.parameters)}` : "",
    requestOf(o.op.requestBody),
    answersOf(o),
  ];
  return parts.filter(Boolean).join("\n\n");
}

// The pages are built inside a `v-pre` block: the contract's text is shown as it is, never read as Vue.
const page = (title: string, body: string[]) => `# ${title}\n\n::: v-pre\n\n${body.join("\n\n")}\n\n:::\n`;

function overview(doc: OA.Document, groups: ReferencePage[]): ReferencePage {
  const schemes = Object.entries(doc.components?.securitySchemes ?? {}) as [string, OA.SecuritySchemeObject][];
  const how = (s: OA.SecuritySchemeObject) => {
    if (s.type === "http") return `\`Authorization: ${s.scheme === "bearer" ? "Bearer" : s.scheme}\``;
    return s.type === "apiKey" ? `${s.in} ${code(s.name)}` : s.type;
  };
  const schemas = Object.entries(doc.components?.schemas ?? {});
  const body = [
    prose(doc.info.description ?? ""),
    "Every worker serves this contract at `GET /v1/openapi.json`; these pages are rendered from the same " +
      "document (`docs/openapi.json`, written by `npm run build`) each time the docs are built. How it is made " +
      "and checked, and how to generate a typed client: [The API contract](../api.md).",
    "## Pages",
    table(
      ["page", "operations"],
      groups.map((g) => [`[${g.title}](./${g.slug}.md)`, String(g.operations.length)]),
    ),
    "## Auth",
    "An operation's **Auth** names the schemes it takes; `a or b` means either, `a + b` both together.",
    table(
      ["scheme", "sent as", "what it is"],
      schemes.map(([name, s]) => [
        `<span id="${authAnchor(name)}">${code(name)}</span>`,
        how(s),
        cell(s.description ?? ""),
      ]),
    ),
    "## Errors",
    'Every error answers `{ "error": { "code", "message" } }` (the ' +
      `${schemaLink("ErrorBody")} schema, whose \`code\` lists every code the API has); each operation's ` +
      "**Answers** list the codes it may answer, by status (the contract's `x-error-codes`).",
    "## Schemas",
    ...schemas.map(([name, s]) => `### ${name} {#${schemaAnchor(name)}}\n\n${bodyOf(asSchema(s))}`),
  ];
  return { slug: "index", title: "API reference", markdown: page("API reference", body), operations: [] };
}

/** The overview and the group pages, in the document's order. */
export function referencePages(doc: OA.Document): ReferencePage[] {
  const bySlug = new Map<string, { group: ReferenceGroup; ops: Operation[] }>();
  for (const o of operationsOf(doc)) {
    const entry = bySlug.get(o.group.slug) ?? { group: o.group, ops: [] };
    entry.ops.push(o);
    bySlug.set(o.group.slug, entry);
  }
  const groups = [...bySlug.values()].map(({ group, ops }) => ({
    slug: group.slug,
    title: group.title,
    markdown: page(group.title, [prose(group.lead), ...ops.map(operationMarkdown)]),
    operations: ops.map((o) => ({
      label: `${o.method.toUpperCase()} ${o.path}`,
      anchor: anchorOf(o),
    })),
  }));
  return [overview(doc, groups), ...groups];
}
