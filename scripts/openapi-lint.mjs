// `npm run openapi:lint`: checks docs/openapi.json (written by `npm run build`) against the OpenAPI 3.1
// specification's own schema with an outside validator, offline (@apidevtools/swagger-parser).
import SwaggerParser from "@apidevtools/swagger-parser";

const file = process.argv[2] ?? "docs/openapi.json";
try {
  const api = await SwaggerParser.validate(file);
  const operations = Object.values(api.paths ?? {}).reduce((n, item) => n + Object.keys(item ?? {}).length, 0);
  console.log(`${file}: valid OpenAPI ${api.openapi}, ${operations} operations`);
} catch (err) {
  console.error(`${file}: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
