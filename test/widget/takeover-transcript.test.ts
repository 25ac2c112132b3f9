import { describe, expect, it } from "vitest";
import { foldSession } from "../../shared/session/session.ts";
import { messageEvent } from "../../shared/session/events.ts";
import { buildTranscript } from "../../widget/state/transcript.ts";
import { sameItem } from "../../widget/ui/same-item.ts";
import type { SessionEvent, StoredMessage } from "../../shared/session/session-events.ts";

const ev = (type: string, data: unknown, at: number): SessionEvent =>
  ({ id: `${type}:${at}`, at, type, data }) as SessionEvent;
const msg = (id: string, role: "user" | "assistant", content: string, at: number, author?: string) =>
  messageEvent({
    id,
    role,
    content,
    at,
    ...(role === "assistant" ? { status: "complete" as const } : {}),
    ...(author ? { author: { staffId: "s1", name: author } } : {}),
  } as StoredMessage);

describe("takeover in the visitor's transcript", () => {
  const state = foldSession([
    msg("u1", "user", "hello", 1000),
    msg("a1", "assistant", "Hi, how can I help?", 1100),
    ev("staff.joined", { staffId: "s1", name: "Mei" }, 2000),
    msg("staff-1", "assistant", "I am Mei", 2100, "Mei"),
    msg("u2", "user", "my rash", 2200),
    ev("staff.handed_back", { staffId: "s1", name: "Mei" }, 3000),
    msg("u3", "user", "and sunscreen?", 3100),
    msg("a2", "assistant", "Use SPF 30.", 3200),
  ]);

  it("places joins and hand backs among the messages by time, and a person's messages apart from replies", () => {
    const items = buildTranscript(state.messages, [], "native", undefined, state.handoffs);
    expect(items.map((i) => (i.kind === "person" ? `${i.content ?? (i.back ? "back" : "joined")}` : i.kind))).toEqual([
      "user",
      "reply",
      "joined",
      "I am Mei",
      "user",
      "back",
      "user",
      "reply",
    ]);
    expect(items[2]).toMatchObject({ kind: "person", name: "Mei", at: 2000 });
    expect(items[3]).toMatchObject({ kind: "person", id: "staff-1", name: "Mei", at: 2100 });
    // A person's message never joins the assistant's reply around it.
    const replies = items.filter((i) => i.kind === "reply");
    expect(replies.map((r) => r.kind === "reply" && r.parts.map((p) => p.kind === "text" && p.content))).toEqual([
      ["Hi, how can I help?"],
      ["Use SPF 30."],
    ]);
  });

  it("a join with nothing said since comes last; a person's line is redrawn only when it changes", () => {
    const joined = foldSession([
      msg("u1", "user", "hello", 1000),
      ev("staff.joined", { staffId: "s1", name: "Mei" }, 2000),
    ]);
    const a = buildTranscript(joined.messages, [], "native", undefined, joined.handoffs);
    const b = buildTranscript(joined.messages, [], "native", undefined, joined.handoffs);
    expect(a.at(-1)).toMatchObject({ kind: "person", name: "Mei" });
    expect(sameItem(a[1], b[1])).toBe(true);
    expect(sameItem(a[1], { ...b[1], at: 2001 })).toBe(false);
    expect(sameItem(a[0], a[1])).toBe(false);
  });

  it("the reducer keeps each join and hand back in order, and folds onto a state without them", () => {
    expect(state.handoffs).toEqual([
      { name: "Mei", at: 2000 },
      { name: "Mei", at: 3000, back: true },
    ]);
    const { handoffs: _h, ...old } = foldSession([msg("u1", "user", "hello", 1000)]);
    const next = foldSession([ev("staff.joined", { staffId: "s1", name: "Li" }, 5)], { ...old, handoffs: undefined });
    expect(next.handoffs).toEqual([{ name: "Li", at: 5 }]);
  });
});
