import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../shared/chat/chat.ts";
import { DEMO_SCRIPTS, pickDemoStep, type DemoScript, type DemoStep, type DemoTurn } from "../../worker/demo/index.ts";
import { auth, call, openSession } from "../helpers/worker/client.ts";

/**
 * The demo answers in the visitor's language, as a model does, on every demo page (each preset
 * agent's script): a visitor who writes Chinese reads Chinese replies, advice cards, follow-up
 * chips and stage values; one who writes English reads English.
 */
type Msg = Omit<ChatMessage, "id">;
const HAN = /[\u3400-\u9fff]/;

/** What a visitor reads of a step: the answer (a text-ReAct step's Final Answer) and the cards, chips and values. */
function visible(step: DemoStep): string[] {
  const content = step.content ?? "";
  const answer = content.includes("Final Answer:")
    ? content.split("Final Answer:")[1]
    : /Action:/.test(content)
      ? ""
      : content;
  const shown = ["record_advice", "ask_followup", "record_stage_data"];
  const args = (step.toolCalls ?? []).filter((c) => shown.includes(c.name)).map((c) => c.arguments);
  const strings = (v: unknown): string[] =>
    typeof v === "string" ? [v] : v && typeof v === "object" ? Object.values(v).flatMap(strings) : [];
  // A code (a severity, a study type) is shown as its localised label, not as written.
  const code = /^[\w.-]+$/;
  return [answer, ...args.flatMap(strings)].filter((t) => t.trim() && /[\p{L}]/u.test(t) && !code.test(t));
}

/** English left in Chinese text: four or more English words in a row (links, names and units aside). */
const englishRun = (text: string) =>
  /[A-Za-z]{2,}(?:[\s,'’]+[A-Za-z]{2,}){3}/.exec(text.replace(/https?:\/\/\S+/g, ""))?.[0];

const toolsOf = (script: DemoScript) =>
  [
    ...new Set(
      [...script.turns, script.fallback]
        .flatMap((t) => [...t.steps, ...(t.zh ?? [])])
        .flatMap((s) => s.toolCalls ?? []),
    ),
  ].map((c) => c.name);

/** Every step of a turn as the demo model gives it to a visitor whose message is `text` (or a photo after it). */
function stepsFor(script: DemoScript, turn: DemoTurn, text: string, system = ""): DemoStep[] {
  const first: Msg[] = [
    ...(system ? [{ role: "system" as const, content: system }] : []),
    { role: "user", content: text },
  ];
  const asked: Msg[] = turn.photo
    ? [...first, { role: "assistant", content: "…" }, { role: "user", content: [{ type: "image_url" }] }]
    : first;
  const n = (turn.zh ?? turn.steps).length;
  return Array.from({ length: n }, (_, k) =>
    pickDemoStep(script, {
      messages: [...asked, ...Array.from({ length: k }, () => ({ role: "assistant" as const, content: "…" }))],
      tools: [...new Set(toolsOf(script))],
    }),
  );
}

const triggers = (turn: DemoTurn, chinese: boolean) => (turn.when ?? []).filter((w) => HAN.test(w) === chinese);

describe("the demo model speaks the visitor's language", () => {
  for (const script of Object.values(DEMO_SCRIPTS)) {
    it(`${script.agentId}: every turn a Chinese message starts answers in Chinese, an English one in English`, () => {
      const turns = [...script.turns, { ...script.fallback, when: ["你好，我想问一个问题", "hello, a question"] }];
      let checked = 0;
      for (const turn of turns) {
        const system = turn.system?.[0] ?? "";
        for (const chinese of [true, false]) {
          const said = turn.photo ? [chinese ? "我手臂上有皮疹" : "a rash on my arm"] : triggers(turn, chinese);
          for (const text of said.slice(0, 1)) {
            const shown = stepsFor(script, turn, text, system).flatMap(visible);
            expect(shown.length, `${script.agentId} "${text}"`).toBeGreaterThan(0);
            for (const t of shown) {
              if (chinese) {
                expect(HAN.test(t), `${script.agentId} "${text}": ${t}`).toBe(true);
                expect(englishRun(t), `${script.agentId} "${text}": ${t}`).toBeUndefined();
              } else expect(HAN.test(t), `${script.agentId} "${text}": ${t}`).toBe(false);
            }
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(2);
    });
  }

  it("a zh-CN visitor describing a rash in Chinese gets a Chinese reply and Chinese advice cards", async () => {
    const s = await openSession("derm-consult");
    const headers = auth(s.token);
    const messages = [{ id: "q", role: "user", content: "我的手臂上有红色的皮疹，很痒" }];
    const first = await call("/v1/chat/completions", { method: "POST", json: { stream: false, messages }, headers });
    const reply = (await first.res.json()) as any;
    await first.done();
    expect(reply.choices[0].message.content).toMatch(/接触性皮炎/);
    const state = (await (await call(`/v1/sessions/${s.sessionId}`, { headers })).res.json()) as any;
    expect(state.state.advice.map((a: { title: string }) => a.title)).toEqual(["舒缓并保护皮肤", "何时去看皮肤科医生"]);
  });
});
