// `npm run docs:stubs`: the API reference's committed stubs (docs/reference/*.md) for the pages the contract
// has now; run after `npm run build:openapi` when a page is added, renamed or removed.
import { readOpenApi } from "./openapi-source.ts";
import { referencePages } from "./reference-pages.ts";
import { writeStubs } from "./reference-stubs.ts";

const changed = writeStubs(referencePages(readOpenApi()));
for (const { file, problem } of changed)
  console.log(`docs/reference/${file}: ${problem === "no such page" ? "removed" : "written"}`);
if (changed.length === 0) console.log("docs/reference: every stub is as the contract's pages need");
