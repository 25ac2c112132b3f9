import { z } from "zod/mini";
import { TOOL_NAMES } from "./tool-names.ts";
import { defineTool } from "./tool.ts";

export const webSearch = defineTool({
  name: TOOL_NAMES.webSearch,
  runsOn: "edge",
  description:
    "Search the web for current, public information. Returns " +
    "result titles, URLs and snippets (no summary); cite the " +
    "URLs you use.",
  input: z.object({
    query: z.string().check(z.minLength(1), z.maxLength(400)),
    max_results: z.optional(z.int().check(z.gte(1), z.lte(10))),
  }),
});

export interface WebResult {
  title: string;
  url: string;
  snippet: string;
}
