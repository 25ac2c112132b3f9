import { ACCOUNT_ROUTES, PRIVACY_ROUTES, WEBHOOK_ROUTES } from "./owner-routes.ts";
import { CONNECTOR_ROUTES } from "./connector-routes.ts";
import type { RouterRoute } from "hono/types";
import type { z } from "zod/mini";
import { HEADERS } from "../../shared/wire/protocol.ts";
import * as ROUTES from "../../shared/wire/routes.ts";
import { CONSOLE_COOKIE_FULL } from "../console/console-cookie.ts";
import { contractOf, type ErrorAnswer, type MiddlewareContract } from "../middleware/contract.ts";
import { ADMIN_ROUTES } from "./admin-routes.ts";
import { jsonSchema, namedSchemas, type JsonSchema } from "./json-schema.ts";
import { permissionErrors } from "./permission-errors.ts";
import type { Answer, RouteDoc, RouteDocs } from "./route-doc.ts";
import { SITE_ROUTES } from "./site-routes.ts";
import { SSO_ROUTES } from "./sso-routes.ts";
import { VISITOR_ROUTES } from "./visitor-routes.ts";

/** Every route's table entry, by `METHOD /path` (route-doc.ts). */
export const ROUTE_DOCS: RouteDocs = {
  ...SITE_ROUTES,
  ...VISITOR_ROUTES,
  ...ADMIN_ROUTES,
  ...ACCOUNT_ROUTES,
  ...PRIVACY_ROUTES,
  ...WEBHOOK_ROUTES,
  ...SSO_ROUTES,
  ...CONNECTOR_ROUTES,
};

/** What every /v1 route may answer whatever it is: the body limit, and the error it never means to give. */
const API_ERRORS: readonly ErrorAnswer[] = [
  [413, "payload_too_large"],
  [500, "internal"],
];

/** One operation of the app: its method and Hono path, and every handler that runs for it, middleware first. */
export interface AppOperation {
  method: string;
  path: string;
  handlers: unknown[];
}

/**
 * The app's operations as Hono keeps them (`app.routes`: one entry per handler): each method and
 * path with its own handlers and the middleware `use`d on a scope that covers it (`/v1/*`).
 */
export function appOperations(routes: readonly RouterRoute[]): AppOperation[] {
  const ops = new Map<string, AppOperation>();
  for (const r of routes) {
    if (r.method === "ALL") continue;
    const key = `${r.method} ${r.path}`;
    if (!ops.has(key)) {
      const scoped = routes.filter((s) => s.method === "ALL" && covers(s.path, r.path)).map((s) => s.handler);
      ops.set(key, { method: r.method, path: r.path, handlers: scoped });
    }
    ops.get(key)!.handlers.push(r.handler);
  }
  return [...ops.values()];
}

const covers = (scope: string, path: string) =>
  scope === "*" || scope === "/*" || scope === path || (scope.endsWith("/*") && path.startsWith(scope.slice(0, -1)));

/** `/v1/sessions/:id` as OpenAPI writes it (`/v1/sessions/{id}`), with each parameter's pattern if it has one. */
export function openApiPath(path: string): { path: string; params: Array<{ name: string; pattern?: string }> } {
  const params: Array<{ name: string; pattern?: string }> = [];
  const out = path
    .replace(/:(\w+)(?:\{((?:[^{}]|\{[^}]*\})+)\})?/g, (_m, name: string, pattern?: string) => {
      params.push({ name, ...(pattern ? { pattern } : {}) });
      return `{${name}}`;
    })
    .replace(/\/\*$/, () => {
      params.push({ name: "path" });
      return "/{path}";
    });
  return { path: out, params };
}

/** The ROUTES export a path is declared as: the operation's id (`getAdminSessions`). */
const ROUTE_NAMES = new Map(Object.entries(ROUTES).map(([name, path]) => [path as string, name]));
const operationId = (method: string, path: string) => {
  const name = ROUTE_NAMES.get(path) ?? path.replace(/\W+/g, "_");
  return method.toLowerCase() + name[0].toUpperCase() + name.slice(1);
};

const ADMIN_SITE = {
  name: "site",
  in: "query",
  description: "The site key: required with the admin key header; with the console's cookie, its own site or nothing",
  schema: { type: "string" },
};

const SECURITY = {
  session: [{ sessionBearer: [] }],
  admin: [{ adminKey: [] }, { consoleCookie: [] }],
  adminWrite: [{ adminKey: [] }, { consoleCookie: [], consoleCsrf: [] }],
  console: [{ consoleCookie: [] }],
  consoleWrite: [{ consoleCookie: [], consoleCsrf: [] }],
  public: [],
};

function security(method: string, auth: MiddlewareContract["auth"], doc: RouteDoc) {
  const write = method !== "GET";
  if (auth === "session") return SECURITY.session;
  if (auth === "admin") return write ? SECURITY.adminWrite : SECURITY.admin;
  if (doc.consoleAuth) return write ? SECURITY.consoleWrite : SECURITY.console;
  return SECURITY.public;
}

function content(answer: Answer): Record<string, unknown> | undefined {
  if (answer.media === "none") return undefined;
  const out: Record<string, unknown> = {
    [answer.media ?? "application/json"]: answer.schema ? { schema: jsonSchema(answer.schema, "output") } : {},
  };
  for (const media of answer.alsoMedia ?? []) out[media] = {};
  return out;
}

/** The codes a route may answer, by status (the operation's `x-error-codes`). */
function errorCodes(errors: readonly ErrorAnswer[]): Record<string, string[]> {
  const byStatus: Record<string, string[]> = {};
  for (const [status, code] of [...errors].sort(([a], [b]) => a - b)) {
    const list = (byStatus[String(status)] ??= []);
    if (!list.includes(code)) list.push(code);
  }
  for (const list of Object.values(byStatus)) list.sort();
  return byStatus;
}

/** Each error status as a reference to the shared error answer, its codes in the description. */
function errorAnswers(codes: Record<string, string[]>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(codes).map(([status, list]) => [
      status,
      { $ref: `#/components/responses/Error${status}`, description: list.join(", ") },
    ]),
  );
}

/** One shared error answer per status the document uses (the body is always ErrorBody). */
function errorResponses(statuses: Iterable<string>): Record<string, unknown> {
  return Object.fromEntries(
    [...new Set(statuses)].sort().map((status) => [
      `Error${status}`,
      {
        description: `An error (HTTP ${status}): the operation's x-error-codes list its codes`,
        content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorBody" } } },
      },
    ]),
  );
}

function queryParameters(query: z.ZodMiniObject | undefined): unknown[] {
  if (!query) return [];
  const schema = jsonSchema(query, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, s]) => {
    const { description, ...rest } = s;
    return {
      name,
      in: "query",
      required: schema.required?.includes(name) ?? false,
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

function operation(op: AppOperation, doc: RouteDoc): Record<string, unknown> {
  const contracts = op.handlers.map(contractOf).filter((c): c is MiddlewareContract => !!c);
  const auth = contracts.find((c) => c.auth)?.auth;
  const body = contracts.find((c) => c.body)?.body;
  const errors = [
    ...contracts.flatMap((c) => c.errors ?? []),
    ...(doc.errors ?? []),
    ...permissionErrors(op.method, op.path),
    ...(op.path.startsWith("/v1/") ? API_ERRORS : []),
  ];
  const codes = errorCodes(errors);
  const { params } = openApiPath(op.path);
  const requestBody = body
    ? { required: true, content: { "application/json": { schema: jsonSchema(body, "input") } } }
    : doc.rawBody
      ? {
          required: true,
          description: doc.rawBody.description,
          content: Object.fromEntries(
            doc.rawBody.media.map((m) => [m, { schema: { type: "string", format: "binary" } }]),
          ),
        }
      : undefined;
  const answers = Object.fromEntries(
    Object.entries(doc.answers).map(([status, a]) => {
      const media = content(a);
      return [status, { description: a.description, ...(media ? { content: media } : {}) }];
    }),
  );
  return {
    operationId: operationId(op.method, op.path),
    tags: [doc.tag],
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    security: security(op.method, auth, doc),
    parameters: [
      ...params.map((p) => ({
        name: p.name,
        in: "path",
        required: true,
        schema: { type: "string", ...(p.pattern ? { pattern: `^${p.pattern}$` } : {}) },
        ...(p.name === "path" ? { description: "Any path below this one" } : {}),
      })),
      ...(auth === "admin" ? [ADMIN_SITE] : []),
      ...queryParameters(doc.query),
    ],
    ...(requestBody ? { requestBody } : {}),
    responses: { ...answers, ...errorAnswers(codes) },
    "x-error-codes": codes,
  };
}

/** An operation the table lacks still appears (so the document never hides a route), marked for the test to find. */
const UNDOCUMENTED: RouteDoc = { tag: "public", summary: "Undocumented", answers: { 200: { description: "?" } } };

/**
 * The OpenAPI 3.1 document of the app: every route it serves, with the auth, body and errors its
 * middleware declares and what the route table says (route-doc.ts). Built from the running app's
 * routes, so a route cannot be served without appearing here.
 */
export function openApiDocument(routes: readonly RouterRoute[], docs: RouteDocs = ROUTE_DOCS) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of appOperations(routes)) {
    const doc = docs[`${op.method} ${op.path}`];
    const path = openApiPath(op.path).path;
    const method = op.method.toLowerCase();
    const entry = (paths[path] ??= {});
    const built = operation(op, doc ?? UNDOCUMENTED);
    // Two declared routes on one OpenAPI path (the demo's pages and its scripts): one operation, both patterns.
    entry[method] = entry[method] ? mergeOperations(entry[method] as Operation, built as Operation) : built;
    if (!doc) entry[method] = { ...(entry[method] as object), "x-undocumented": true };
  }
  return {
    openapi: "3.1.1",
    info: {
      title: "Parley",
      version: "1",
      description:
        "The edge proxy of Parley's chat widget: the visitor's session calls, the site owner's admin API and " +
        'console. Every error answers `{ "error": { "code", "message" } }`.',
    },
    servers: [{ url: "/", description: "The worker that serves this document" }],
    tags: [
      { name: "public", description: "No credentials" },
      { name: "visitor", description: "A visitor's widget, with its session token" },
      { name: "admin", description: "The site owner: admin key header, or the console's cookie" },
      { name: "console", description: "The owner's console: its page and its sign-in" },
      { name: "demo", description: "The demo site, in demo mode only" },
    ],
    paths,
    components: {
      schemas: namedSchemas(),
      responses: errorResponses(
        Object.values(paths).flatMap((item) =>
          Object.values(item).flatMap((op) => Object.keys((op as { "x-error-codes": object })["x-error-codes"])),
        ),
      ),
      securitySchemes: {
        sessionBearer: {
          type: "http",
          scheme: "bearer",
          description: "The token POST /v1/sessions answers (a WebSocket sends it as the `bearer.<token>` subprotocol)",
        },
        adminKey: {
          type: "apiKey",
          in: "header",
          name: HEADERS.adminKey,
          description: "The site owner's admin key, with `?site=<site key>`",
        },
        consoleCookie: {
          type: "apiKey",
          in: "cookie",
          name: CONSOLE_COOKIE_FULL,
          description: "The console's session (POST /v1/console/session); writes need the CSRF header too",
        },
        consoleCsrf: {
          type: "apiKey",
          in: "header",
          name: HEADERS.csrf,
          description: "The `csrf` of the console session, on every write (and the console's own Origin)",
        },
      },
    },
  };
}

interface Operation {
  summary: string;
  parameters: Array<{ name: string; in: string; schema: { pattern?: string } }>;
  [key: string]: unknown;
}

function mergeOperations(a: Operation, b: Operation): Operation {
  const parameters = a.parameters.map((p) => {
    const other = b.parameters.find((q) => q.name === p.name && q.in === p.in);
    const both = [p.schema.pattern, other?.schema.pattern];
    return p.in === "path" && both.every(Boolean) ? { ...p, schema: { ...p.schema, pattern: both.join("|") } } : p;
  });
  return { ...a, summary: `${a.summary}; ${b.summary.toLowerCase()}`, parameters };
}
