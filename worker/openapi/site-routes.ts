import { z } from "zod/mini";
import * as ROUTES from "../../shared/wire/routes.ts";
import { json, op, type RouteDocs } from "./route-doc.ts";
import * as A from "./visitor-answers.ts";

const html = (description: string) => ({ description, media: "text/html" });
const demoOnly = "Demo mode only (`npm start`, the tests); a deployed worker answers 404.";

/** Routes that are neither a visitor's session calls nor the admin API: health, the contract, pages, the console. */
export const SITE_ROUTES: RouteDocs = {
  [op("get", ROUTES.health)]: {
    tag: "public",
    summary: "Whether the worker answers, and whether replies come from the scripted demo model",
    answers: { 200: json("Health", A.HealthAnswer) },
  },
  [op("get", ROUTES.openapi)]: {
    tag: "public",
    summary: "This document",
    answers: { 200: json("The OpenAPI 3.1 document", z.record(z.string(), z.unknown())) },
  },
  [op("get", ROUTES.embed)]: {
    tag: "public",
    summary: "The iframe embed page of a site's agent",
    description: "Framed only by the site's origins (`frame-ancestors`), which the page also answers alone.",
    query: z.object({
      site: z.string().check(z.describe("The site key")),
      locale: z.optional(z.string().check(z.describe("zh-CN for Chinese, English otherwise"))),
      theme: z.optional(z.enum(["light", "dark", "auto"])),
      draft: z.optional(z.literal("1").check(z.describe("The owner's console trying a draft"))),
    }),
    answers: { 200: html("The page"), 404: { description: "No such agent for this site key", media: "text/plain" } },
  },
  [op("post", ROUTES.consoleSession)]: {
    tag: "console",
    summary: "Sign in to the owner's console: the site key and admin key, or a one-time sign-in link's token",
    description:
      "From the console's own origin. Sets the `__Host-parley-console` cookie (HttpOnly, Secure, SameSite=Strict); " +
      "the answer's `csrf` goes back in the `x-parley-csrf` header on every write. A sign-in link's token " +
      "(`npm run deploy` prints the link) opens its site once.",
    answers: { 200: json("The console session", A.ConsoleSessionAnswer) },
    errors: [
      [401, "unauthorized"],
      [403, "forbidden_origin"],
      [429, "rate_limited"],
      [503, "misconfigured"],
    ],
  },
  [op("get", ROUTES.consoleSession)]: {
    tag: "console",
    summary: "Who is signed in to the console",
    consoleAuth: true,
    answers: { 200: json("The console session", A.ConsoleSessionAnswer) },
    errors: [
      [401, "unauthorized"],
      [403, "forbidden"],
    ],
  },
  [op("delete", ROUTES.consoleSession)]: {
    tag: "console",
    summary: "Sign out of the console",
    consoleAuth: true,
    answers: { 204: { description: "Signed out", media: "none" } },
    errors: [
      [401, "unauthorized"],
      [403, "forbidden"],
      [403, "forbidden_origin"],
    ],
  },
  [op("get", ROUTES.consoleHome)]: {
    tag: "console",
    summary: "The owner's console",
    answers: { 200: html("The console's page") },
  },
  [op("get", ROUTES.consolePage)]: {
    tag: "console",
    summary: "Any address in the console (deep links load the same page)",
    answers: { 200: html("The console's page") },
  },
  [op("get", ROUTES.demoIdentity)]: {
    tag: "demo",
    summary: "The demo's signed identity for a sales rep (in place of a host's backend)",
    description: demoOnly,
    query: z.object({ rep: z.string().check(z.describe("A demo rep, e.g. rep-ana")) }),
    answers: { 200: json("The identity (a JWT)", A.IdentityAnswer) },
    errors: [
      [400, "validation_failed"],
      [404, "not_found"],
    ],
  },
  [op("get", ROUTES.demoWebhooks)]: {
    tag: "demo",
    summary: "What the demo site's webhook endpoint received, for the demo page to show",
    description: demoOnly,
    answers: { 200: { description: "The deliveries the demo receiver verified" } },
    errors: [[404, "not_found"]],
  },
  [op("post", ROUTES.demoWebhookInbox)]: {
    tag: "demo",
    summary: "The demo site's webhook receiver: verifies each delivery's Standard Webhooks signature",
    description: demoOnly,
    answers: { 204: { description: "Received", media: "none" } },
    errors: [
      [401, "unauthorized"],
      [404, "not_found"],
    ],
  },
  [op("get", ROUTES.demoHome)]: {
    tag: "demo",
    summary: "The demo site's home page",
    description: demoOnly,
    answers: { 200: html("The page") },
    errors: [[404, "not_found"]],
  },
  [op("get", ROUTES.demoPage)]: {
    tag: "demo",
    summary: "A page of the demo site",
    description: demoOnly,
    answers: { 200: html("The page") },
    errors: [[404, "not_found"]],
  },
  [op("get", ROUTES.demoAsset)]: {
    tag: "demo",
    summary: "A script or style of the demo site",
    description: demoOnly,
    answers: { 200: { description: "The file", media: "text/javascript", alsoMedia: ["text/css"] } },
    errors: [[404, "not_found"]],
  },
};
