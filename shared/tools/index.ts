import type { ToolDefinition } from "./tool.ts";
import { askFollowup } from "./ask-followup.ts";
import { knowledgeSearch } from "./knowledge-search.ts";
import { recordAdvice } from "./record-advice.ts";
import { recordStageData } from "./record-stage-data.ts";
import { sampleSize } from "./sample-size.ts";
import { suggestStrategyUpdate } from "./suggest-strategy-update.ts";
import { webSearch } from "./web-search.ts";

/** Every tool an agent config may name. */
export const TOOLS: Record<string, ToolDefinition> = Object.fromEntries(
  [recordAdvice, askFollowup, knowledgeSearch, webSearch, recordStageData, sampleSize, suggestStrategyUpdate].map(
    (t) => [t.name, t],
  ),
);
