import { z } from "zod/mini";
import { TOOL_NAMES } from "./tool-names.ts";
import { defineTool } from "./tool.ts";

export const knowledgeSearch = defineTool({
  name: TOOL_NAMES.knowledgeSearch,
  runsOn: "edge",
  description:
    "Search the organisation's own documents (clinic leaflets, " +
    "product sheets, policies). Returns the most relevant " +
    "passages with their titles.",
  input: z.object({
    query: z.string().check(z.minLength(1), z.maxLength(500)),
    top_k: z.optional(z.int().check(z.gte(1), z.lte(10))),
  }),
});

export interface KnowledgeHit {
  id: string;
  title: string;
  text: string;
  score: number;
}
