/** A fake of the worker's API for the widget's Node tests: records requests, streams scripted replies. */
export interface Recorded {
  method: string;
  path: string;
  auth: string | null;
  body: any;
}

export interface FakeApiOptions {
  reply?: string[];
  chunkDelayMs?: number;
  /** Status and error code to answer the chat route with. */
  chatError?: { status: number; code: string };
  sessionStatus?: number;
  toolCall?: boolean;
  /** The reply's stream ends cleanly after its text, without a finish reason or [DONE] (a provider that broke off). */
  endEarly?: boolean;
  /** The agent has the compliance guard; compliance_check flags the checked reply as the worker does. */
  compliance?: boolean;
  /**
   * The first completion is a tool step alone: one native call and no text, or a text ReAct Action
   * (the agent's strategy then is text-react); the next ones answer with `reply`.
   */
  toolStepFirst?: "native" | "text-react";
  /** The site keeps nothing for this many minutes (the agent says so, as the worker's public agent does). */
  keepNothingMinutes?: number;
  /** Sessions the worker erased: a chat request with their token answers 404 not_found. */
  gone?: Set<string>;
  /** The agent asks consent, this version: a session opens only with it (403 consent_required, or 409). */
  consentVersion?: string;
  /**
   * The notice changed to this version after the session opened: the chat route refuses (403
   * consent_required) until the consent route records it.
   */
  newConsentVersion?: string;
}

const enc = new TextEncoder();

export function fakeApi(opts: FakeApiOptions = {}) {
  const requests: Recorded[] = [];
  const stored: any[] = [];
  let sessions = 0;
  let completions = 0;
  let reconsented = false;
  const fetch = async (input: string, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input);
    const headers = new Headers(init.headers);
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    requests.push({ method: init.method ?? "GET", path: url.pathname, auth: headers.get("authorization"), body });
    const json = (status: number, data: unknown) =>
      new Response(JSON.stringify(data), { status, headers: { "content-type": "application/json" } });
    const agent = {
      id: "derm-consult",
      name: { en: "Derm", "zh-CN": "皮肤科" },
      description: { en: "", "zh-CN": "" },
      greeting: { en: "Hello!", "zh-CN": "你好！" },
      starters: [],
      model: "demo",
      strategy: opts.toolStepFirst ?? "native",
      maxTokens: 100,
      maxSteps: 6,
      tools: [],
      stages: [],
      demo: true,
      ...(opts.compliance ? { guards: { emergency: false, advice: false, compliance: true } } : {}),
      ...(opts.keepNothingMinutes ? { keepNothingMinutes: opts.keepNothingMinutes } : {}),
    };
    const consent = opts.consentVersion
      ? { kind: "chat", version: opts.consentVersion, text: { en: "We keep it.", "zh-CN": "我们保存。" } }
      : undefined;
    if (url.pathname === "/v1/sessions" && init.method === "POST" && consent && body.consent !== consent.version)
      return json(body.consent ? 409 : 403, {
        error: { code: body.consent ? "consent_version" : "consent_required", message: "consent first", consent },
      });
    if (url.pathname === "/v1/sessions" && init.method === "POST") {
      sessions++;
      return json(200, {
        sessionId: `s${sessions}`,
        token: `t${sessions}`,
        expiresAt: Date.now() + 3_600_000,
        agent: { ...agent, ...(consent ? { consent } : {}) },
        state: {
          sessionId: `s${sessions}`,
          siteKey: body.siteKey,
          agentId: body.agentId,
          messages: [],
          trace: [],
          version: 1,
          ...(consent ? { consent: { chat: { version: consent.version, at: 1 } } } : {}),
        },
      });
    }
    // The live channel, as the worker answers for a reply whose provider broke off: it ended, interrupted.
    if (url.pathname.endsWith("/live") && url.searchParams.has("reply")) {
      const end = { t: "end", id: url.searchParams.get("reply"), status: "interrupted" };
      return new Response(`data: ${JSON.stringify(end)}\n\n`, { headers: { "content-type": "text/event-stream" } });
    }
    // Takeover: the visitor's message to the person handling the chat, stored and answered as its event.
    if (url.pathname.endsWith("/messages") && init.method === "POST") {
      const message = { id: body.id, role: "user", content: body.content, at: 1 };
      return json(201, { events: [{ id: `msg:${body.id}`, at: 1, type: "message.appended", data: { message } }] });
    }
    if (url.pathname.endsWith("/consent") && init.method === "POST") {
      if (body.version !== opts.newConsentVersion)
        return json(409, { error: { code: "consent_version", message: "" } });
      reconsented = true;
      const event = { id: "consent:1", at: 2, type: "consent.given", data: { kind: body.kind, version: body.version } };
      return json(201, { events: [event] });
    }
    if (url.pathname.startsWith("/v1/sessions/")) {
      if (opts.sessionStatus)
        return json(opts.sessionStatus, { error: { code: "not_found", message: "no such session" } });
      return json(200, {
        agent,
        state: { sessionId: "old", siteKey: "k", agentId: "a", messages: stored, trace: [], version: stored.length },
      });
    }
    if (url.pathname === "/v1/chat/completions" && opts.newConsentVersion && !reconsented) {
      const notice = { kind: "chat", version: opts.newConsentVersion, text: { en: "New text.", "zh-CN": "新文本。" } };
      return json(403, { error: { code: "consent_required", message: "consent first", consent: notice } });
    }
    if (url.pathname === "/v1/chat/completions") {
      if (opts.chatError) return json(opts.chatError.status, { error: { code: opts.chatError.code, message: "nope" } });
      if (opts.gone?.has(headers.get("authorization")?.slice("Bearer ".length) ?? ""))
        return json(404, { error: { code: "not_found", message: "Session not found; open a new session" } });
      completions++;
      const first = opts.toolStepFirst && completions === 1;
      const toolStep = opts.toolCall || (first && opts.toolStepFirst === "native");
      const action = 'Thought: I need the price.\nAction: lookup\nAction Input: {"q": "x"}';
      const parts = first ? (toolStep ? [] : [action]) : (opts.reply ?? ["Hello", " **there**"]);
      const signal = init.signal;
      const stream = new ReadableStream<Uint8Array>({
        async start(ctrl) {
          for (const p of parts) {
            if (opts.chunkDelayMs) await new Promise((r) => setTimeout(r, opts.chunkDelayMs));
            if (signal?.aborted) return;
            ctrl.enqueue(
              enc.encode(
                `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: p }, finish_reason: null }] })}\n\n`,
              ),
            );
          }
          if (opts.endEarly) return ctrl.close();
          if (toolStep) {
            const tc = { index: 0, id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":' } };
            ctrl.enqueue(
              enc.encode(
                "data: " +
                  JSON.stringify({
                    choices: [{ index: 0, delta: { tool_calls: [tc] }, finish_reason: null }],
                  }) +
                  "\n\n",
              ),
            );
            const tc2 = { index: 0, function: { arguments: '"rash"}' } };
            ctrl.enqueue(
              enc.encode(
                "data: " +
                  JSON.stringify({
                    choices: [{ index: 0, delta: { tool_calls: [tc2] }, finish_reason: "tool_calls" }],
                  }) +
                  "\n\n",
              ),
            );
          } else {
            ctrl.enqueue(
              enc.encode(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\n`),
            );
          }
          ctrl.enqueue(enc.encode("data: [DONE]\n\n"));
          ctrl.close();
        },
      });
      return new Response(stream, { status: 200, headers: { "content-type": "text/event-stream" } });
    }
    if (url.pathname === "/v1/tools/compliance_check" && opts.compliance) {
      const { replyId } = body.arguments;
      const advice = {
        id: replyId,
        title: "Not compliant: do not say this as written",
        content: "Say instead: it helps soothe eczema.",
        evidence: ['"cures" (3–8) → "helps soothe"'],
        severity: "caution",
        category: "compliance",
        messageId: replyId,
        at: 1,
      };
      const events = [{ id: `advice:${advice.id}`, at: 1, type: "advice.recorded", data: { advice } }];
      return json(200, { name: "compliance_check", result: { compliant: false }, ms: 1, events });
    }
    return json(404, { error: { code: "not_found", message: "no route" } });
  };
  return { fetch, requests, stored, sessionCount: () => sessions };
}

export function memoryStorage() {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
    map: m,
  };
}
