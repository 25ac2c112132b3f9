/**
 * A reasoning model's thinking, kept apart from its answer. Providers send it three ways:
 * a `reasoning_content` delta field (DeepSeek, Qwen on DashScope, vLLM's reasoning parser, Moonshot,
 * Zhipu GLM, llama.cpp's default `--reasoning-format deepseek`), a `reasoning` field (OpenRouter,
 * newer vLLM and Ollama), or `<think>…</think>` at the start of `content` (Ollama and llama.cpp
 * running R1-style models without a parser; Gemini's OpenAI compatibility writes `<thought>`).
 * Clients that read only one of these show the thinking as the answer or lose it
 * (deepseek-ai/DeepSeek-R1#342, open-webui#8706, continuedev/continue#3832).
 */

/** The reasoning text a streamed delta (or a whole message) carries in a field of its own. */
export function fieldReasoning(delta: { reasoning_content?: unknown; reasoning?: unknown } | undefined): string {
  if (!delta) return "";
  if (typeof delta.reasoning_content === "string" && delta.reasoning_content) return delta.reasoning_content;
  return typeof delta.reasoning === "string" ? delta.reasoning : "";
}

const TAGS = [
  ["<think>", "</think>"],
  ["<thought>", "</thought>"],
] as const;

export interface SplitText {
  reasoning: string;
  content: string;
}

/**
 * Splits a think block off the start of a streamed `content`, piece by piece: a tag may arrive cut
 * across chunks (`<thi` + `nk>`), so text that could still be the start of a tag is held back until
 * the next piece decides it. Only a block at the very start counts (after whitespace): a tag later
 * in an answer is the answer's text, e.g. a reply explaining HTML.
 */
export class ThinkSplitter {
  private state: "start" | "think" | "after" | "answer" = "start";
  private held = "";
  private close = "";

  push(text: string): SplitText {
    const out: SplitText = { reasoning: "", content: "" };
    this.feed(text, out);
    return out;
  }

  /** The stream ended: what was held back is released (an unclosed block stays reasoning). */
  end(): SplitText {
    const out: SplitText = { reasoning: "", content: "" };
    if (this.state === "think") out.reasoning = this.held;
    else if (this.state === "start") out.content = this.held;
    this.held = "";
    this.state = "answer";
    return out;
  }

  private feed(text: string, out: SplitText): void {
    if (this.state === "answer") {
      out.content += text;
      return;
    }
    const buf = this.held + text;
    this.held = "";
    if (this.state === "start") {
      const lead = buf.trimStart();
      const tag = TAGS.find(([open]) => lead.startsWith(open));
      if (tag) {
        this.state = "think";
        this.close = tag[1];
        return this.feed(lead.slice(tag[0].length), out);
      }
      if (lead === "" || TAGS.some(([open]) => open.startsWith(lead))) {
        this.held = buf;
        return;
      }
      this.state = "answer";
      out.content += buf;
      return;
    }
    if (this.state === "think") {
      const at = buf.indexOf(this.close);
      if (at >= 0) {
        out.reasoning += buf.slice(0, at);
        this.state = "after";
        return this.feed(buf.slice(at + this.close.length), out);
      }
      const keep = partialSuffix(buf, this.close);
      out.reasoning += buf.slice(0, buf.length - keep);
      this.held = buf.slice(buf.length - keep);
      return;
    }
    // After the block: the blank lines models put before their answer are not the answer.
    const answer = buf.trimStart();
    if (answer) {
      this.state = "answer";
      out.content += answer;
    }
  }
}

/** The length of the longest end of `text` that is the start of `tag` (a tag cut across chunks). */
function partialSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--)
    if (tag.startsWith(text.slice(text.length - n))) return n;
  return 0;
}

/** A whole message's text split the same way (non-streamed replies, stored messages). */
export function splitThink(text: string): SplitText {
  const s = new ThinkSplitter();
  const a = s.push(text);
  const b = s.end();
  return { reasoning: a.reasoning + b.reasoning, content: a.content + b.content };
}
