import type { DemoScript } from "../../worker/demo/index.ts";
import { startFakeUpstream, type FakeUpstream, type FaultContext, type RecordedRequest } from "./fake-upstream.ts";
import { buildCase, CASES, PROVIDERS, type CaseName } from "./providers/index.ts";
import { contentText } from "../../shared/chat/message-content.ts";

/**
 * The one fake provider of an end-to-end run. Each test site gets its own base URL
 * (`/s/<site key>/v1`) and its own script; the visitor's message scripts the rest with markers:
 *
 * - `[hold:<gate>]` (or `[hold:<gate>@<n>]`): the streamed reply stops after n chunks (default 2)
 *   until the test releases that gate; the test can wait until it is held and until it ended.
 * - `[cut:<n>]`: the stream breaks after n chunks; `[cut once:<n>]` only the first time that text is sent.
 * - `[replay:<provider id>:<case>]`: a recorded provider reply (test/helpers/providers) instead.
 * - `[pace:<ms>]`: the streamed reply waits that long between its events (otherwise none), so a
 *   browser receives a long reply piece by piece as from a model, not in one read.
 */
export const MARKER = {
  hold: /\[hold:([\w-]+)(?:@(\d+))?\]/,
  cut: /\[cut( once)?:(\d+)\]/,
  replay: /\[replay:([\w-]+):([\w -]+)\]/,
  pace: /\[pace:(\d+)\]/,
} as const;

const DEFAULT_HOLD_AFTER = 2;

/** What a test reads of one request its site sent. */
export interface SeenRequest {
  /** The visitor's latest message. */
  text: string;
  status: number | undefined;
  aborted: boolean;
  /** SSE events written, `[DONE]` included. */
  chunks: number;
  authorization: string | null;
  /** The messages the provider was sent. */
  messages: unknown[];
  /** The names of the tools the request offered the model. */
  tools: string[];
}

interface Gate {
  release(): void;
  until: Promise<void>;
  held: Deferred<number>;
  ended: Deferred<SeenRequest>;
  index?: number;
}

export interface E2eProvider {
  /** The base URL to give a site's provider profile. */
  baseUrlFor(siteKey: string): string;
  setScript(siteKey: string, script: DemoScript): void;
  requests(siteKey: string): SeenRequest[];
  gate(name: string): Gate;
  close(): Promise<void>;
}

export async function startE2eProvider(apiKey: string): Promise<E2eProvider> {
  const scripts = new Map<string, DemoScript>();
  const gates = new Map<string, Gate>();
  const cutBefore = new Set<string>();
  const siteOf = (path: string) => /^\/s\/([^/]+)\//.exec(path)?.[1] ?? "";
  const gate = (name: string): Gate => {
    let g = gates.get(name);
    if (!g) {
      let release!: () => void;
      const until = new Promise<void>((r) => (release = r));
      g = { release, until, held: deferred(), ended: deferred() };
      gates.set(name, g);
    }
    return g;
  };
  const holding = new Map<number, Gate>();

  const upstream: FakeUpstream = await startFakeUpstream({
    apiKey,
    scriptFor: ({ path }) => scripts.get(siteOf(path)),
    fault: ({ body }) => {
      const text = lastText(body.messages);
      const cut = MARKER.cut.exec(text);
      if (!cut) return "none";
      const first = !cutBefore.has(text);
      cutBefore.add(text);
      return !cut[1] || first ? { kind: "cut", afterChunks: Number(cut[2]) } : "none";
    },
    hold: ({ body, index }) => {
      const m = MARKER.hold.exec(lastText(body.messages));
      if (!m) return undefined;
      const g = gate(m[1]);
      g.index = index;
      holding.set(index, g);
      return {
        afterChunks: m[2] ? Number(m[2]) : DEFAULT_HOLD_AFTER,
        until: g.until,
        held: () => g.held.resolve(index),
      };
    },
    replay: ({ body }) => {
      const m = MARKER.replay.exec(lastText(body.messages));
      const style = m && PROVIDERS.find((p) => p.id === m[1]);
      if (!m || !style) return undefined;
      const which = [...CASES, "thinking tool call"].find((c) => c === m[2]);
      return which ? buildCase(style, which as CaseName) : undefined;
    },
    pace: ({ body }) => {
      const m = MARKER.pace.exec(lastText(body.messages));
      return m ? Number(m[1]) : undefined;
    },
    onEnded: (rec) => holding.get(rec.index)?.ended.resolve(seen(rec)),
  });

  return {
    baseUrlFor: (siteKey) => `http://127.0.0.1:${upstream.port}/s/${siteKey}/v1`,
    setScript: (siteKey, script) => void scripts.set(siteKey, script),
    requests: (siteKey) => upstream.requests.filter((r) => siteOf(r.path) === siteKey).map(seen),
    gate,
    close: () => upstream.close(),
  };
}

function seen(r: RecordedRequest): SeenRequest {
  return {
    text: lastText(r.body?.messages ?? []),
    status: r.status,
    aborted: r.aborted,
    chunks: r.chunks.length,
    authorization: (r.headers.authorization as string | undefined) ?? null,
    messages: r.body?.messages ?? [],
    tools: ((r.body?.tools as Array<{ function?: { name?: string } }> | undefined) ?? []).map(
      (t) => t.function?.name ?? "",
    ),
  };
}

function lastText(messages: FaultContext["body"]["messages"]): string {
  const last = messages.filter((m) => m.role === "user").at(-1);
  return last ? contentText(last.content) : "";
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
