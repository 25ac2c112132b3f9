import { z } from "zod/mini";
import * as ROUTES from "../../shared/wire/routes.ts";
import { json, op, type RouteDoc, type RouteDocs } from "./route-doc.ts";

/**
 * The site's connections to the owner's systems: the calendar visitors book in the chat
 * (docs/booking.md) and the MCP servers its agents call (docs/mcp.md). Secrets are named, never sent:
 * the answers say whether the worker has each one set.
 */
const view = (description: string, fields: string[]) =>
  json(description, z.looseObject(Object.fromEntries(fields.map((f) => [f, z.unknown()]))));
const admin = (summary: string, answers: RouteDoc["answers"]): RouteDoc => ({
  tag: "admin",
  summary,
  answers,
  errors: [
    [400, "validation_failed"],
    [403, "role_forbidden"],
    [404, "unknown_site"],
  ],
});
const calendar = view("The calendar's settings (null: none), whether its key's secret is set, demo mode", [
  "booking",
  "keySet",
  "demo",
]);

export const CONNECTOR_ROUTES: RouteDocs = {
  [op("get", ROUTES.adminBooking)]: admin("The site's calendar for booking in the chat", { 200: calendar }),
  [op("put", ROUTES.adminBooking)]: admin(
    "Connect or change the calendar (a public https address; the key named as a CALCOM_ worker secret)",
    { 200: calendar },
  ),
  [op("delete", ROUTES.adminBooking)]: admin("Disconnect the calendar: agents stop offering booking", {
    200: calendar,
  }),
  [op("get", ROUTES.adminMcpServers)]: admin("The site's MCP servers, and whether each auth secret is set", {
    200: view("The servers", ["servers"]),
  }),
  [op("put", ROUTES.adminMcpServers)]: admin(
    "Replace the MCP servers (public https addresses; auth secrets named MCP_…)",
    { 200: view("The servers", ["servers"]) },
  ),
  [op("post", ROUTES.adminMcpServerTest)]: admin(
    "Test connection: list one server's tools from the worker (5 s at most), or say why not " +
      "(refused, secret_missing, unreachable, unauthorized, not_mcp); each tool says why it is not offered, if not",
    { 200: view("The server's tools, or the failure", ["id", "ok", "tools", "failure", "ms"]) },
  ),
  [op("get", ROUTES.adminMcpTools)]: admin("Every MCP server's tools, for an agent's allowlist (editors)", {
    200: view("Each server's tools, or why they could not be listed", ["servers"]),
  }),
};
