// The API contract the docs render, as `npm run build:openapi` wrote it; the docs scripts run that first.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { OpenAPIV3_1 } from "openapi-types";

export const OPENAPI_FILE = fileURLToPath(new URL("../../docs/openapi.json", import.meta.url));

export function readOpenApi(file = OPENAPI_FILE): OpenAPIV3_1.Document {
  if (!existsSync(file))
    throw new Error(`${file} is missing: \`npm run build:openapi\` writes it from the worker's routes`);
  return JSON.parse(readFileSync(file, "utf8")) as OpenAPIV3_1.Document;
}
