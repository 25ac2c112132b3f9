import { describe, expect, it } from "vitest";
import { reactCallId } from "../../shared/chat/client-steps.ts";
import { readReactStep } from "../../widget/agent/strategies/text-react-parse.ts";
import { buildTranscript, withLive, type ReplyItem } from "../../widget/state/transcript.ts";
import type { StoredMessage } from "../../shared/session/session-events.ts";

const user = (id: string, content: string): StoredMessage => ({ id, role: "user", content, at: 1 });
const answer = (id: string, content: string, extra: Partial<StoredMessage> = {}): StoredMessage => ({
  id,
  role: "assistant",
  content,
  at: 2,
  ...extra,
});
const lookup: StoredMessage = answer("a2", "", {
  toolCalls: [{ id: "c1", type: "function", function: { name: "knowledge_search", arguments: '{"query":"eczema"}' } }],
});
const conversation = [user("u1", "Hi"), answer("a1", "Hello"), user("u2", "Eczema?"), lookup];

describe("withLive: the step still streaming on top of the stored transcript", () => {
  it("continues the turn's reply after its stored steps, and leaves every item above as it was built", () => {
    const stored = buildTranscript(conversation, [], "native");
    const shown = withLive(stored, { id: "a3", answer: "Moist", reasoning: "" }, conversation);
    expect(shown).toHaveLength(stored.length);
    // The same objects: the message list keeps what it drew for them without comparing their insides.
    shown.slice(0, -1).forEach((item, i) => expect(item).toBe(stored[i]));
    const live = shown.at(-1) as ReplyItem;
    expect(live).toMatchObject({ id: "a2", live: true });
    expect(live.reasoning.map((r) => r.id)).toEqual(["c1"]);
    expect(live.parts).toEqual([{ kind: "text", id: "a3", content: "Moist", streaming: true }]);
    // The stored reply itself is not changed: the next chunk starts from it again.
    expect(stored.at(-1)).toMatchObject({ live: false, parts: [] });
  });

  it("starts a reply after the visitor's message, with the model's thinking as a step", () => {
    const stored = buildTranscript(conversation.slice(0, 3), [], "native");
    const shown = withLive(stored, { id: "a3", answer: "", reasoning: "Looking it up" }, conversation.slice(0, 3));
    expect(shown).toHaveLength(stored.length + 1);
    expect(shown.at(-1)).toEqual({
      kind: "reply",
      id: "a3",
      live: true,
      parts: [{ kind: "text", id: "a3", content: "", streaming: true }],
      reasoning: [{ id: "a3:t", kind: "thought", text: "Looking it up" }],
    });
  });

  it("is the stored transcript itself when nothing streams, or the log already has the streaming step", () => {
    const stored = buildTranscript(conversation, [], "native");
    expect(withLive(stored, null, conversation)).toBe(stored);
    // The live channel's copy of the reply came in before its last bytes: the stored message shows.
    expect(withLive(stored, { id: "a2", answer: "Moi", reasoning: "" }, conversation)).toBe(stored);
  });
});

describe("buildTranscript: a text ReAct reply", () => {
  const react = [
    user("u1", "Eczema?"),
    answer("a1", 'Thought: check the leaflet\nAction: knowledge_search\nAction Input: {"query": "eczema"}'),
    user("o1", "Observation: Moisturise twice a day."),
    answer("a2", "Thought: enough\nFinal Answer: Moisturise **twice** a day."),
  ];

  it("shows the final answer, with the thoughts and the tool step (its observation as outcome) as reasoning", () => {
    expect(buildTranscript(react, [], "text-react", readReactStep)[1]).toEqual({
      kind: "reply",
      id: "a1",
      at: 2,
      live: false,
      parts: [{ kind: "text", id: "a2", content: "Moisturise **twice** a day." }],
      reasoning: [
        { id: "a1:t", kind: "thought", text: "check the leaflet" },
        {
          id: reactCallId("a1"),
          kind: "tool",
          tool: "knowledge_search",
          text: "eczema",
          outcome: "Moisturise twice a day.",
        },
        { id: "a2:t", kind: "thought", text: "enough" },
      ],
    });
  });

  it("shows none of the raw Thought / Action text until its reader has loaded", () => {
    const items = buildTranscript(react, [], "text-react");
    expect(items[1]).toMatchObject({ kind: "reply", parts: [], reasoning: [] });
    expect(JSON.stringify(items)).not.toMatch(/Thought|Action|Final Answer/);
  });
});
