import { z } from "zod/mini";
import type { SessionSummary } from "../session/session-summary.ts";

const digits = z.optional(z.string().check(z.regex(/^\d{1,15}$/)));
const flag = z.optional(z.enum(["1", "true"]));

/**
 * The console's conversation filters, as query parameters (`/v1/admin/sessions?agent=...`): the
 * list, its export and the insights take the same ones. Dates are ms since the epoch (`from`
 * inclusive, `to` exclusive) of when the conversation was opened.
 */
export const ConversationQuery = z.object({
  agent: z.optional(z.string().check(z.maxLength(64))),
  from: digits,
  to: digits,
  route: z.optional(z.enum(["quick", "react"])),
  feedback: z.optional(z.enum(["up", "down", "any", "none"])),
  advice: flag,
  escalated: flag,
  interrupted: flag,
  handledBy: z.optional(z.enum(["agent", "human"])),
  /** Text search in the visitor's first message (and the conversation's id). */
  q: z.optional(z.string().check(z.maxLength(200))),
  limit: digits,
  /** Paging: conversations opened before this (the previous page's `next`). */
  before: digits,
  format: z.optional(z.enum(["csv", "json"])),
  /** Exports: the variant for sharing, personal details replaced by typed placeholders (`[email]`, `[phone]`, …). */
  redacted: flag,
});
export type ConversationQuery = z.infer<typeof ConversationQuery>;

export interface ConversationList {
  site: string;
  /** The site's agents (for the agent filter). */
  agents: string[];
  sessions: SessionSummary[];
  /** The next page's `before`, when there may be more. */
  next?: number;
  tokensToday: { spent: number; budget: number };
}

/** One day and agent of the insights. */
export interface InsightRow {
  day: string;
  agent: string;
  conversations: number;
  messages: number;
  tokens: number;
  answers: number;
  quickAnswers: number;
  ttftP50: number | null;
  ttftP95: number | null;
  toolCalls: number;
  toolFailures: number;
  feedbackUp: number;
  feedbackDown: number;
}

export interface Insights {
  site: string;
  from: number;
  to: number;
  /** The site's daily token budget, which each day's tokens are drawn against. */
  budgetPerDay: number;
  /** The site's agents (for the per-agent filter). */
  agents: string[];
  /** Per day and agent. */
  rows: InsightRow[];
  /** Per day across the agents asked for (`agent` is `*`): the percentiles are over all their completions. */
  days: InsightRow[];
}
