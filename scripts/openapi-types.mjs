// Part of `npm run build:openapi`: a typed client's types (dist/openapi/parley-api.ts) from docs/openapi.json, with
// openapi-typescript (scripts/openapi-types/). test/e2e/openapi-client.test.ts drives the worker through them.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { generateTypes } from "parley-openapi-types";

const [from = "docs/openapi.json", to = "dist/openapi/parley-api.ts"] = process.argv.slice(2);
mkdirSync(dirname(to), { recursive: true });
writeFileSync(to, await generateTypes(JSON.parse(readFileSync(from, "utf8"))));
console.log(`Wrote ${to} from ${from}`);
