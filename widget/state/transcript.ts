import type { ToolCall } from "../../shared/chat/chat.ts";
import type { SessionState } from "../../shared/session/session.ts";
import type { Strategy, StepView } from "../agent/loop.ts";
import type { TextReact } from "../agent/strategies/load-text-react.ts";
import type { Advice, StoredMessage } from "../../shared/session/session-events.ts";

/** One line of the collapsed "how I got there" list under a reply. */
export interface ReasoningStep {
  id: string;
  kind: "thought" | "tool";
  text: string;
  tool?: string;
  /** The tool's result as the model read it; absent while the tool runs. */
  outcome?: string;
}

export type ReplyPart =
  | { kind: "text"; id: string; content: string; status?: StoredMessage["status"]; streaming?: boolean }
  | { kind: "advice"; advice: Advice }
  | { kind: "followup"; id: string; question: string; options: string[] };

export interface ReplyItem {
  kind: "reply";
  id: string;
  parts: ReplyPart[];
  reasoning: ReasoningStep[];
  /** The turn is still under way. */
  live: boolean;
  /** When the reply began (its first stored message); absent while only the live step exists. */
  at?: number;
}

/**
 * A person from the site's staff (takeover): their message (`content`), or the line saying they joined
 * or, `back`, handed the conversation back to the assistant. Drawn by the takeover chunk.
 */
export interface PersonItem {
  kind: "person";
  id: string;
  at: number;
  name: string;
  content?: string;
  back?: true;
}

export type TranscriptItem =
  { kind: "user"; id: string; content: string; at: number; photos?: string[] } | ReplyItem | PersonItem;

/** A text ReAct step before its reader has loaded: nothing of its raw text shows. */
const UNREAD = { answer: "", thought: "", calls: [] };

const ADVICE = "record_advice";
const FOLLOWUP = "ask_followup";

function args(call: ToolCall): Record<string, unknown> {
  try {
    return JSON.parse(call.function.arguments || "{}") as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** A short line for a tool call in the reasoning list, e.g. `knowledge_search: "eczema care"`. */
function toolLine(call: ToolCall): string {
  const a = args(call);
  const query = a.query ?? a.question ?? a.title;
  return typeof query === "string" ? query : "";
}

/**
 * Folds the session's stored messages (withLive adds the step still streaming) into what the visitor sees: their
 * messages, and for each of their turns one reply made of text, advice cards and follow-up
 * questions, with the reasoning collapsed under it. Tool results and text-ReAct observations are
 * the model's working, not conversation: they appear only as reasoning steps.
 */
export function buildTranscript(
  messages: readonly StoredMessage[],
  advice: readonly Advice[],
  strategy: Strategy,
  /** Text ReAct's step reader (a lazy chunk): until it has loaded, a ReAct reply shows no raw Thought/Action text. */
  readReact?: TextReact["readReactStep"],
  /** Takeover's joins and hand backs, placed among the messages by time. */
  handoffs: SessionState["handoffs"] = [],
): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  let h = 0;
  const person = (p: Omit<PersonItem, "kind">) => {
    reply = null;
    items.push({ kind: "person", ...p });
  };
  const handoffsUntil = (at: number) => {
    for (; h < handoffs.length && handoffs[h].at <= at; h++) person({ id: `handoff:${h}`, ...handoffs[h] });
  };
  const outcomes = new Map<string, string>();
  for (const m of messages) if (m.role === "tool" && m.toolCallId) outcomes.set(m.toolCallId, m.content);
  let reply = null as ReplyItem | null;
  const current = (): ReplyItem => {
    if (!reply) {
      reply = { kind: "reply", id: "", parts: [], reasoning: [], live: false };
      items.push(reply);
    }
    return reply;
  };
  const addStep = (
    id: string,
    answer: string,
    calls: readonly ToolCall[],
    status: StoredMessage["status"],
    thought?: string,
  ) => {
    const r = current();
    r.id ||= id;
    if (thought) r.reasoning.push({ id: `${id}:t`, kind: "thought", text: thought });
    else if (strategy === "hybrid" && /^\s*Thought\s*:/i.test(answer)) {
      r.reasoning.push({ id: `${id}:t`, kind: "thought", text: answer.replace(/^\s*Thought\s*:\s*/i, "") });
      answer = "";
    }
    if (answer) r.parts.push({ kind: "text", id, content: answer, status });
    // The compliance guard's flag on this reply (the worker's card, with the reply's id; see agent-turn.ts).
    const flag = advice.find((x) => x.id === id);
    if (flag) r.parts.push({ kind: "advice", advice: flag });
    for (const call of calls) {
      // A card the worker built for this call: record_advice's, or a quote that passed compliance_check.
      const card = advice.find((x) => x.id === call.id);
      if (card) r.parts.push({ kind: "advice", advice: card });
      if (call.function.name === FOLLOWUP) {
        const a = args(call);
        r.parts.push({
          kind: "followup",
          id: call.id,
          question: String(a.question ?? ""),
          options: Array.isArray(a.options) ? a.options.map(String) : [],
        });
      } else if (call.function.name !== ADVICE) {
        r.reasoning.push({
          id: call.id,
          kind: "tool",
          tool: call.function.name,
          text: toolLine(call),
          outcome: outcomes.get(call.id),
        });
      }
    }
  };

  for (const m of messages) {
    handoffsUntil(m.at);
    if (m.author) person({ id: m.id, at: m.at, name: m.author.name, content: m.content });
    else if (m.role === "user") {
      if (m.content.startsWith("Observation:")) {
        // Text ReAct: the observation answers the reply's latest tool step.
        const step = reply?.reasoning.filter((x) => x.kind === "tool").at(-1);
        if (step) step.outcome = m.content.slice("Observation:".length).trim();
        continue;
      }
      reply = null;
      items.push({ kind: "user", id: m.id, content: m.content, at: m.at, photos: m.photos });
    } else if (m.role === "assistant") {
      const react = strategy === "text-react" ? (readReact?.(m.id, m.content) ?? UNREAD) : null;
      current().at ??= m.at;
      // A reasoning model's thinking, stored apart from its answer: collapsed with the reply's working.
      if (m.reasoning) current().reasoning.push({ id: `${m.id}:r`, kind: "thought", text: m.reasoning });
      const { answer, calls, thought } = react ?? { answer: m.content, calls: m.toolCalls ?? [] };
      addStep(m.id, answer, calls, m.status, thought);
    }
  }
  handoffsUntil(Infinity);
  return items;
}

/**
 * The stored messages' transcript with the step still streaming: the turn under way continues the
 * last reply (its finished steps are stored messages above), or starts one after the visitor's message.
 * Only that reply is copied: every item above is the same object on every chunk, so a chunk costs the
 * reply under way, not the conversation.
 */
export function withLive(
  items: readonly TranscriptItem[],
  live: Pick<StepView, "id" | "answer" | "reasoning"> | null,
  /** The stored messages: the log's copy of the streaming step (live channel) may come before its last bytes. */
  messages: readonly Pick<StoredMessage, "id">[],
): readonly TranscriptItem[] {
  if (!live || messages.some((m) => m.id === live.id)) return items;
  const last = items.at(-1);
  const prev = last?.kind === "reply" ? last : null;
  const r: ReplyItem = prev
    ? { ...prev, parts: [...prev.parts], reasoning: [...prev.reasoning] }
    : { kind: "reply", id: "", parts: [], reasoning: [], live: false };
  r.live = true;
  r.id ||= live.id;
  if (live.reasoning) r.reasoning.push({ id: `${live.id}:t`, kind: "thought", text: live.reasoning });
  r.parts.push({ kind: "text", id: live.id, content: live.answer, streaming: true });
  return prev ? [...items.slice(0, -1), r] : [...items, r];
}
