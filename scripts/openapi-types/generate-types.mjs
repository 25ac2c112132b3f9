// TypeScript types (`paths`, `components`) from an OpenAPI document, as openapi-fetch's createClient<paths>
// reads them. Runs with the TypeScript 5 this workspace nests (see its package.json).
import openapiTS, { astToString } from "openapi-typescript";

/** @param {object} document a parsed OpenAPI 3.1 document @returns {Promise<string>} the types' source */
export async function generateTypes(document) {
  // A copy: openapi-typescript annotates the object it is given.
  const ast = await openapiTS(structuredClone(document), { alphabetize: true });
  return astToString(ast);
}
