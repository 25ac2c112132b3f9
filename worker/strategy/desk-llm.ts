import type { ToolCall } from "../../shared/chat/chat.ts";
import type { OpenAITool } from "../../shared/tools/tool.ts";
import type { Span } from "../../shared/admin/desk-records.ts";
import { inSpan } from "./desk-trace.ts";

/** Which desk agent a completion is for; the provider never sees it, the demo model and the trace do. */
export type DeskRole = "strategies" | "guidance" | "review" | "judge" | "answer";

export interface DeskMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

export interface DeskRequest {
  role: DeskRole;
  messages: DeskMessage[];
  tools: OpenAITool[];
  /** Forces this tool (OpenAI `tool_choice`). */
  toolChoice?: string;
}

export interface DeskCompletion {
  content: string;
  toolCalls: ToolCall[];
  promptTokens: number;
  completionTokens: number;
  model: string;
}

export interface DeskLlm {
  complete(req: DeskRequest): Promise<DeskCompletion>;
}

export class DeskBudgetError extends Error {
  override name = "DeskBudgetError";
}

/**
 * What every desk completion goes through: a span with model, tokens and ms, the run's token
 * count, and a cap checked before each call (gepa#375: a run stopped by its budget says so, it does
 * not pass for a finished one).
 */
export class MeteredLlm {
  tokens = 0;
  calls = 0;
  constructor(
    private readonly llm: DeskLlm,
    private readonly capTokens: number,
    private readonly onCall: () => void = () => {},
  ) {}

  complete(parent: Span, req: DeskRequest): Promise<DeskCompletion> {
    if (this.tokens >= this.capTokens) {
      throw new DeskBudgetError(
        `the desk's token allowance ran out after ${this.tokens} tokens (${this.capTokens} left for this run)`,
      );
    }
    return inSpan(parent, `completion:${req.role}`, "completion", {}, async (span) => {
      const out = await this.llm.complete(req);
      this.tokens += out.promptTokens + out.completionTokens;
      this.calls++;
      this.onCall();
      Object.assign(span.attrs, {
        model: out.model,
        promptTokens: out.promptTokens,
        completionTokens: out.completionTokens,
        toolCalls: out.toolCalls.map((c) => c.function.name).join(",") || null,
      });
      return out;
    });
  }
}
