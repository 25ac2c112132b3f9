import { request, type ClientRequest } from "node:http";
import { performance } from "node:perf_hooks";
import type { SessionResponse } from "../../shared/api.ts";
import type { LiveFrame } from "../../shared/live.ts";
import { GENERIC_REPLY } from "../helpers/fake-upstream.ts";
import { fmt, summarize, type Summary } from "../helpers/stats.ts";
import { benchAgent } from "./sse-client.ts";

/**
 * The reconnect storm (issue 16), a scenario of bench:load: every session streams a reply at once,
 * a third of the streams drop mid-reply at about the same moment and reattach through the live
 * channel (`GET /v1/sessions/:id/live?reply=<id>&from=<offset>`, as the widget does after a break),
 * telling the worker how many characters of the reply's SSE text they have. Each visitor's text,
 * what came before the drop and what the channel sent after, must be the scripted reply exactly:
 * no character lost or doubled. Reattach time: from sending the reattach request to the first
 * character the stream had missed.
 */
export interface StormOptions {
  url: string;
  origin: string;
  sessions: SessionResponse[];
  /** Every `dropEvery`-th session drops its stream (3: a third). */
  dropEvery: number;
  /** Content chunks a dropping stream reads before it drops (spread a little, so the drops are a burst). */
  dropAfterChunks: [number, number];
}

export interface StormResult {
  streams: number;
  dropped: number;
  /** Streams whose final text is not the scripted reply, by how: shorter (lost) or other (doubled). */
  lost: number;
  doubled: number;
  /** Streams that failed outright (an HTTP error, a broken reattach). */
  failed: string[];
  reattach: Summary;
  /** ms from the first drop to the last. */
  burstMs: number;
}

/** The reply's text (content deltas) in SSE text; `done` when it ended with [DONE]. */
function contentOf(sse: string): { content: string; done: boolean } {
  let content = "";
  let done = false;
  for (const block of sse.split("\n\n").slice(0, -1)) {
    const data = block.startsWith("data: ") ? block.slice(6) : "";
    if (data === "[DONE]") done = true;
    else if (data.startsWith("{")) content += JSON.parse(data).choices?.[0]?.delta?.content ?? "";
  }
  return { content, done };
}

interface Visit {
  text: string;
  dropped: boolean;
  reattachMs?: number;
  dropAt?: number;
}

/** One visitor's reply: the chat stream, dropped after `dropAfter` content chunks (or not), then reattached. */
function chat(o: StormOptions, s: SessionResponse, replyId: string, dropAfter: number | null): Promise<Visit> {
  const body = JSON.stringify({
    stream: true,
    messages: [{ id: `${replyId}-q`, role: "user", content: "storm" }],
    parley: { replyId },
  });
  const u = new URL(`${o.url}/v1/chat/completions`);
  return new Promise<Visit>((resolve, reject) => {
    /** The visitor dropped the stream: its own socket's errors after that are not failures. */
    let gone = false;
    const req: ClientRequest = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: "POST",
        agent: benchAgent,
        headers: {
          authorization: `Bearer ${s.token}`,
          origin: o.origin,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(new Error(`chat answered ${res.statusCode}`));
        }
        res.setEncoding("utf8");
        let text = "";
        let chunks = 0;
        res.on("data", (part: string) => {
          if (gone) return;
          text += part;
          chunks += (part.match(/"content":"/g) ?? []).length;
          if (dropAfter !== null && chunks >= dropAfter) {
            // The network goes: what arrived is what the visitor has.
            gone = true;
            const dropAt = performance.now();
            res.destroy();
            req.destroy();
            reattach(o, s, replyId, text).then((r) => resolve({ ...r, dropped: true, dropAt }), reject);
          }
        });
        res.on("end", () => !gone && resolve({ text, dropped: false }));
        res.on("error", (e) => !gone && reject(e));
      },
    );
    req.on("error", (e) => !gone && reject(e));
    req.end(body);
  });
}

/** The widget's reattachment (widget/transport/follow.ts): the reply's rest from the offset it has. */
function reattach(o: StormOptions, s: SessionResponse, replyId: string, had: string): Promise<Omit<Visit, "dropped">> {
  const sent = performance.now();
  const u = new URL(`${o.url}/v1/sessions/${s.sessionId}/live?reply=${encodeURIComponent(replyId)}&from=${had.length}`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        agent: benchAgent,
        headers: { authorization: `Bearer ${s.token}`, origin: o.origin },
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(new Error(`live answered ${res.statusCode}`));
        }
        res.setEncoding("utf8");
        let text = had;
        let buf = "";
        let reattachMs: number | undefined;
        let ended = false;
        res.on("data", (part: string) => {
          buf += part;
          let cut: number;
          while ((cut = buf.indexOf("\n\n")) >= 0) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            if (!block.startsWith("data: ")) continue;
            const f = JSON.parse(block.slice(6)) as LiveFrame;
            if (f.t === "end") ended = true;
            if (f.t !== "r" || f.id !== replyId) continue;
            // Each frame names its offset: text the visitor has is skipped, a gap is a loss.
            if (f.o > text.length) return reject(new Error(`gap: text from ${f.o}, had ${text.length}`));
            const d = f.d.slice(text.length - f.o);
            if (d && reattachMs === undefined) reattachMs = performance.now() - sent;
            text += d;
          }
        });
        res.on("end", () => (ended ? resolve({ text, reattachMs }) : reject(new Error("live ended without its end"))));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

export async function reconnectStorm(o: StormOptions): Promise<StormResult> {
  const [lo, hi] = o.dropAfterChunks;
  const visits = await Promise.all(
    o.sessions.map((s, i) => {
      const drops = i % o.dropEvery === 0;
      const replyId = `storm-${i}`;
      return chat(o, s, replyId, drops ? lo + (i % (hi - lo + 1)) : null).then(
        (v) => ({ ok: true as const, v }),
        (e: Error) => ({ ok: false as const, error: `session ${i}: ${e.message}` }),
      );
    }),
  );
  const failed = visits.flatMap((r) => (r.ok ? [] : [r.error]));
  let lost = 0;
  let doubled = 0;
  const done = visits.flatMap((r) => (r.ok ? [r.v] : []));
  for (const v of done) {
    const { content, done: ended } = contentOf(v.text);
    if (content === GENERIC_REPLY && ended) continue;
    if (content.length < GENERIC_REPLY.length || !ended) lost++;
    else doubled++;
  }
  const dropped = done.filter((v) => v.dropped);
  const drops = dropped.map((v) => v.dropAt!);
  return {
    streams: o.sessions.length,
    dropped: dropped.length,
    lost,
    doubled,
    failed,
    reattach: summarize(dropped.flatMap((v) => (v.reattachMs === undefined ? [] : [v.reattachMs]))),
    burstMs: drops.length ? Math.max(...drops) - Math.min(...drops) : 0,
  };
}

export const stormLine = (r: StormResult) =>
  `reconnect storm: ${r.streams} streams, ${r.dropped} dropped mid-reply within ${fmt(r.burstMs, 0)} ms and ` +
  `reattached; lost ${r.lost}, doubled ${r.doubled}, failed ${r.failed.length}; reattach (ms) p50 ` +
  `${fmt(r.reattach.p50, 1)}  p90 ${fmt(r.reattach.p90, 1)}  p99 ${fmt(r.reattach.p99, 1)}  max ${fmt(r.reattach.max, 1)}`;
