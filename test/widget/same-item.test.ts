import { describe, expect, it } from "vitest";
import type { ReplyItem, TranscriptItem } from "../../widget/state/transcript.ts";
import { sameItem } from "../../widget/ui/same-item.ts";

const reply = (over: Partial<ReplyItem> = {}): ReplyItem => ({
  kind: "reply",
  id: "r1",
  parts: [
    { kind: "text", id: "m1", content: "Hello **there**" },
    { kind: "followup", id: "f1", question: "Where?", options: ["arm", "leg"] },
  ],
  reasoning: [{ id: "c1", kind: "tool", tool: "knowledge_search", text: "eczema", outcome: "3 hits" }],
  live: false,
  at: 1,
  ...over,
});

describe("sameItem: what the message list may keep from the previous render", () => {
  it("treats a rebuilt, unchanged item as the same", () => {
    expect(sameItem(reply(), reply())).toBe(true);
    const user: TranscriptItem = { kind: "user", id: "u1", content: "Hi", at: 1 };
    expect(sameItem(user, { ...user })).toBe(true);
  });

  it("sees every change a visitor would see", () => {
    const base = reply();
    const text = base.parts[0] as Extract<ReplyItem["parts"][number], { kind: "text" }>;
    const changes: ReplyItem[] = [
      reply({ live: true }),
      reply({ at: 2 }),
      reply({ parts: [{ ...text, content: "Hello **there**!" }, base.parts[1]] }),
      reply({ parts: [{ ...text, streaming: true }, base.parts[1]] }),
      reply({ parts: [{ ...text, status: "interrupted" }, base.parts[1]] }),
      reply({ parts: [text, { kind: "followup", id: "f1", question: "Where?", options: ["arm"] }] }),
      reply({ parts: [text] }),
      reply({ reasoning: [{ ...base.reasoning[0], outcome: undefined }] }),
      reply({ reasoning: [] }),
    ];
    for (const changed of changes) expect(sameItem(base, changed)).toBe(false);
    const user: TranscriptItem = { kind: "user", id: "u1", content: "Hi", at: 1 };
    expect(sameItem(user, { ...user, content: "Hi!" })).toBe(false);
    expect(sameItem(user, base)).toBe(false);
  });

  it("compares advice cards by identity: the session keeps a recorded card's object", () => {
    const advice = { id: "a1", title: "t", content: "c", evidence: [], severity: "info", category: "x" } as never;
    const withCard = (a: unknown) => reply({ parts: [{ kind: "advice", advice: a as never }] });
    expect(sameItem(withCard(advice), withCard(advice))).toBe(true);
    expect(sameItem(withCard(advice), withCard({ ...(advice as object) }))).toBe(false);
  });
});
