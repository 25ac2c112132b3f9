// One page per group of the API's operations, and the overview (`index`), rendered from docs/openapi.json.
import { readOpenApi } from "../../scripts/docs/openapi-source.ts";
import { referencePages } from "../../scripts/docs/reference-pages.ts";

export default {
  // VitePress reloads the pages when the contract changes under `npm run docs`.
  watch: ["../openapi.json"],
  paths() {
    return referencePages(readOpenApi()).map((p) => ({ params: { page: p.slug }, content: p.markdown }));
  },
};
