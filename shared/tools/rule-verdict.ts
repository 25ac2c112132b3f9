import { z } from "zod/mini";
import { TOOL_NAMES } from "./tool-names.ts";
import { defineTool } from "./tool.ts";

/** A prompt-based completion rule's structured answer (the stage workflow's reflexion check); forced by the worker. */
export const ruleVerdict = defineTool({
  name: TOOL_NAMES.ruleVerdict,
  runsOn: "edge",
  description:
    "Give your verdict on the check: pass true or false, and a one-sentence reason the researcher can act on.",
  input: z.object({ pass: z.boolean(), reason: z.string().check(z.maxLength(500)) }),
});
