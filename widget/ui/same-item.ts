import type { ReasoningStep, ReplyPart, TranscriptItem } from "../state/transcript.ts";

/**
 * Whether two builds of one transcript item show the same thing. The transcript is rebuilt whenever
 * the reply under way grows; every item above it comes out equal (its strings are the stored
 * messages' own, so comparing them is cheap), and the message list keeps what it drew for them.
 */
export function sameItem(a: TranscriptItem, b: TranscriptItem): boolean {
  if (a === b) return true;
  // A visitor's message, a staff member's, a join or hand back: one text, one time.
  if (a.kind !== "reply" || b.kind !== "reply") {
    const text = (x: TranscriptItem) => (x as { content?: string }).content;
    return a.kind === b.kind && a.id === b.id && text(a) === text(b) && a.at === b.at;
  }
  return (
    a.id === b.id &&
    a.live === b.live &&
    a.at === b.at &&
    sameList(a.parts, b.parts, samePart) &&
    sameList(a.reasoning, b.reasoning, sameStep)
  );
}

function sameList<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): boolean {
  return a.length === b.length && a.every((x, i) => same(x, b[i]));
}

function samePart(a: ReplyPart, b: ReplyPart): boolean {
  if (a.kind === "text" && b.kind === "text") {
    return a.id === b.id && a.content === b.content && a.status === b.status && a.streaming === b.streaming;
  }
  if (a.kind === "advice" && b.kind === "advice") return a.advice === b.advice;
  if (a.kind === "followup" && b.kind === "followup") {
    return a.id === b.id && a.question === b.question && sameList(a.options, b.options, (x, y) => x === y);
  }
  return false;
}

const sameStep = (a: ReasoningStep, b: ReasoningStep): boolean =>
  a.id === b.id && a.kind === b.kind && a.text === b.text && a.tool === b.tool && a.outcome === b.outcome;
