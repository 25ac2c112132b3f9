import { vi } from "vitest";

/**
 * A weak model behind a site's provider, for the strategy desk: `fetch` is answered in the isolate
 * (the desk's Durable Object runs in the test's). Its editor copies the first request into the
 * strategies word for word; given the reviewer's suggestions, it writes `reworded` instead. Its
 * reviewer passes everything at 90 and its judge finds the replies the same. Every request body is
 * kept, so a test can read what the provider was sent.
 */
export const WEAK_PROVIDER = { id: "weak", baseUrl: "https://weak-model.test/v1", auth: "none" as const };

type Message = { role: string; content: string | null; tool_calls?: unknown[] };
type Body = { messages: Message[]; tools?: Array<{ function: { name: string } }> };

const completion = (content: string, calls: Array<{ name: string; arguments: unknown }> = []) =>
  Response.json({
    id: "weak",
    object: "chat.completion",
    model: "weak-model",
    choices: [
      {
        index: 0,
        finish_reason: calls.length ? "tool_calls" : "stop",
        message: {
          role: "assistant",
          content,
          ...(calls.length
            ? {
                tool_calls: calls.map((c, i) => ({
                  id: `weak_${i}_${crypto.randomUUID().slice(0, 6)}`,
                  type: "function",
                  function: { name: c.name, arguments: JSON.stringify(c.arguments) },
                })),
              }
            : {}),
        },
      },
    ],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
  });

/** The working copy as the editor last saw it (read_part's numbered lines). */
function workingCopy(messages: Message[]): string {
  const seen = messages.filter((m) => m.role === "tool").at(-1)?.content ?? "";
  return seen
    .split("\n")
    .filter((l) => /^\d+\| /.test(l))
    .map((l) => l.replace(/^\d+\| /, ""))
    .join("\n");
}

function editor(body: Body, reworded: string): Response {
  const system = body.messages[0]?.content ?? "";
  const step = body.messages.filter((m) => m.role === "assistant").length;
  if (step === 0) return completion("", [{ name: "read_part", arguments: {} }]);
  if (step > 1) return completion("Done.");
  const text = workingCopy(body.messages);
  const last = text.split("\n").at(-1) ?? "";
  // A request quoted as data, or one listed as a line of its own.
  const quoted = /^ {3}request: (".*")$/m.exec(system)?.[1];
  const request = quoted ? (JSON.parse(quoted) as string) : (/^- (.+?) \(from [^)]*\)$/m.exec(system)?.[1] ?? "");
  const added = system.startsWith("You maintain the conversation strategies")
    ? system.includes("suggestions on the last attempt")
      ? reworded
      : `- ${request}`
    : "- Check the reply follows the strategies.";
  return completion("", [{ name: "edit", arguments: { old_text: last, new_text: `${last}\n${added}` } }]);
}

export function weakDeskModel(opts: { reworded: string }) {
  const bodies: Body[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    if (!req.url.startsWith(WEAK_PROVIDER.baseUrl)) throw new Error(`unexpected fetch ${req.url}`);
    const body = (await req.json()) as Body;
    bodies.push(body);
    const tools = (body.tools ?? []).map((t) => t.function.name);
    if (tools.includes("edit")) return editor(body, opts.reworded);
    if (tools.includes("submit_review"))
      return completion("", [{ name: "submit_review", arguments: { score: 90, reasons: "Looks fine." } }]);
    if (tools.includes("judge_replies"))
      return completion("", [{ name: "judge_replies", arguments: { better: "same", reason: "Alike." } }]);
    return completion("An answer.");
  });
  return { spy, bodies };
}
