// `npm run build:openapi`: writes the API's contract to docs/openapi.json, as GET /v1/openapi.json serves it.
// JavaScript run by tsx (`tsx --import ./scripts/workers-shim.mjs scripts/openapi.mjs [--out <file>]`): it loads
// the worker's app, whose types belong to the worker's own TypeScript project, not to the Node one.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../worker/app.ts";
import { openApiDocument } from "../worker/openapi/openapi-document.ts";

const { values } = parseArgs({ options: { out: { type: "string", default: "docs/openapi.json" } } });
const document = openApiDocument(createApp().routes);
const undocumented = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([, op]) => op["x-undocumented"])
    .map(([method]) => `${method.toUpperCase()} ${path}`),
);
if (undocumented.length) {
  process.stderr.write(`openapi: routes missing from worker/openapi's tables: ${undocumented.join(", ")}\n`);
  process.exit(1);
}
mkdirSync(dirname(values.out), { recursive: true });
writeFileSync(values.out, `${JSON.stringify(document, null, 2)}\n`);
const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
process.stdout.write(`Wrote ${values.out}: ${Object.keys(document.paths).length} paths, ${operations} operations\n`);
