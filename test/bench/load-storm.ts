import { request, type ClientRequest } from "node:http";
import { performance } from "node:perf_hooks";
import type { SessionResponse } from "../../shared/wire/api.ts";
import type { LiveFrame } from "../../shared/session/live.ts";
import { GENERIC_REPLY } from "../helpers/fake-upstream.ts";
import { fmt, summarize, type Summary } from "../helpers/stats.ts";
import { rawGet } from "./raw-stream.ts";

/**
 * The reconnect storm, a scenario of bench:load: every session streams a reply at once;
 * once every stream has begun, a third of them drop together, mid-reply, and reattach through the live
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
  /**
   * How long a dropped visitor is away before it reattaches (a network blip): the reply goes on at the
   * worker meanwhile, so there is text to catch up on, and the reattach time measures the channel, not
   * the wait for the provider's next piece.
   */
  offlineMs: number;
  /** The worker process's CPU time so far (ms), to price one reattachment (see StormResult.cpu). */
  cpuMs?: () => number | undefined;
}

export interface StormResult {
  streams: number;
  dropped: number;
  /** Streams whose final text is not the scripted reply, by how: shorter (lost) or other (doubled). */
  lost: number;
  doubled: number;
  /** Every stream that went wrong, described: an HTTP error, a broken reattach (a gap), a wrong text. */
  failed: string[];
  reattach: Summary;
  /** ms from the first drop to the last. */
  burstMs: number;
  /** ms from the storm's start until every stream had begun (when the third drops). */
  allStreamingMs: number;
  /**
   * What the burst cost the worker's one thread: its CPU share while the other streams run on (the
   * dropped visitors are away), and its CPU per reattachment beyond that share, from the first
   * reattachment sent to the last one's first missed character. Undefined without `cpuMs`.
   */
  cpu?: { backgroundShare: number; perReattachMs: number };
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

/** CPU readings around the burst (StormResult.cpu). */
interface Meter {
  at(): { ms: number; cpu: number } | undefined;
  /** The first reattachment is sent; the last one has its first missed character. */
  first?: { ms: number; cpu: number };
  last?: { ms: number; cpu: number };
  pending: number;
}

/** The storm's moment: every stream has begun; the dropping ones go together. */
interface Burst {
  /** A stream has its first piece of text. */
  streaming(): void;
  /** Settles when the streams drop. */
  drop: Promise<void>;
  meter: Meter;
}

/** One visitor's reply: the chat stream, dropped with the burst (or not), then reattached after a while. */
function chat(o: StormOptions, s: SessionResponse, replyId: string, drops: boolean, burst: Burst): Promise<Visit> {
  const body = JSON.stringify({
    stream: true,
    messages: [{ id: `${replyId}-q`, role: "user", content: "storm" }],
    parley: { replyId },
  });
  const u = new URL(`${o.url}/v1/chat/completions`);
  return new Promise<Visit>((resolve, reject) => {
    /** The visitor dropped the stream: its own socket's errors after that are not failures. */
    let gone = false;
    let ended = false;
    let text = "";
    const req: ClientRequest = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: "POST",
        // A connection of its own, as each visitor has: a pooled socket the worker closed after an
        // early-ended response would reset, which no browser's visitor meets.
        agent: false,
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
          burst.streaming();
          return reject(new Error(`chat answered ${res.statusCode}`));
        }
        res.setEncoding("utf8");
        let first = true;
        res.on("data", (part: string) => {
          if (gone) return;
          text += part;
          if (first && part.includes('"content":"')) {
            first = false;
            burst.streaming();
          }
        });
        res.on("end", () => {
          ended = true;
          if (!gone) resolve({ text, dropped: false });
        });
        res.on("error", (e) => !gone && reject(e));
        if (!drops) return;
        void burst.drop.then(() => {
          if (ended) return reject(new Error("the reply ended before the storm (make STORM_CHUNK_MS longer)"));
          // The network goes: what arrived is what the visitor has.
          gone = true;
          const dropAt = performance.now();
          res.destroy();
          req.destroy();
          const had = text;
          setTimeout(
            () =>
              reattach(o, s, replyId, had, burst.meter).then((r) => resolve({ ...r, dropped: true, dropAt }), reject),
            o.offlineMs,
          );
        });
      },
    );
    req.on("error", (e) => {
      if (gone) return;
      burst.streaming();
      reject(e);
    });
    req.end(body);
  });
}

/**
 * The widget's reattachment (widget/transport/follow.ts): the reply's rest from the offset it has,
 * on a new connection (back from a network drop), timed from when the request is written.
 */
function reattach(
  o: StormOptions,
  s: SessionResponse,
  replyId: string,
  had: string,
  meter: Meter,
): Promise<Omit<Visit, "dropped">> {
  meter.first ??= meter.at();
  const u = new URL(`${o.url}/v1/sessions/${s.sessionId}/live?reply=${encodeURIComponent(replyId)}&from=${had.length}`);
  return new Promise((resolve, reject) => {
    let sent = performance.now();
    let text = had;
    let buf = "";
    let reattachMs: number | undefined;
    let ended = false;
    let failed: Error | undefined;
    const stop = rawGet(
      u,
      { authorization: `Bearer ${s.token}`, origin: o.origin },
      {
        sent: () => void (sent = performance.now()),
        status: (code) => {
          if (code === 200) return;
          failed = new Error(`live answered ${code}`);
          stop();
          reject(failed);
        },
        body: (part) => {
          buf += part;
          let cut: number;
          while (!failed && (cut = buf.indexOf("\n\n")) >= 0) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            if (!block.startsWith("data: ")) continue;
            const f = JSON.parse(block.slice(6)) as LiveFrame;
            if (f.t === "end") ended = true;
            if (f.t !== "r" || f.id !== replyId) continue;
            // Each frame names its offset: text the visitor has is skipped, a gap is a loss.
            if (f.o > text.length) {
              failed = new Error(`gap: text from ${f.o}, had ${text.length}`);
              break;
            }
            const d = f.d.slice(text.length - f.o);
            if (d && reattachMs === undefined) {
              reattachMs = performance.now() - sent;
              if (--meter.pending === 0) meter.last = meter.at();
            }
            text += d;
          }
          if (!failed) return;
          stop();
          reject(failed);
        },
        end: () => {
          if (ended) resolve({ text, reattachMs });
          else reject(new Error("live ended without its end"));
        },
        error: reject,
      },
    );
  });
}

export async function reconnectStorm(o: StormOptions): Promise<StormResult> {
  const started = performance.now();
  let allStreamingMs = NaN;
  let waiting = o.sessions.length;
  let drop!: () => void;
  const meter: Meter = {
    at: () => {
      const cpu = o.cpuMs?.();
      return cpu === undefined ? undefined : { ms: performance.now(), cpu };
    },
    pending: o.sessions.filter((_, i) => i % o.dropEvery === 0).length,
  };
  // The worker's load while the dropped visitors are away: the other streams, and the dropped ones'
  // replies running on at the worker.
  const away: Array<Meter["first"]> = [];
  const burst: Burst = {
    streaming: () => void (--waiting === 0 && drop()),
    drop: new Promise<void>((r) => (drop = r)).then(() => {
      allStreamingMs = performance.now() - started;
      const read = () => away.push(meter.at());
      setTimeout(read, Math.min(100, o.offlineMs / 4));
      setTimeout(read, o.offlineMs - Math.min(20, o.offlineMs / 10));
    }),
    meter,
  };
  const visits = await Promise.all(
    o.sessions.map((s, i) =>
      chat(o, s, `storm-${i}`, i % o.dropEvery === 0, burst).then(
        (v) => ({ ok: true as const, v }),
        (e: Error) => ({ ok: false as const, error: `session ${i}: ${e.message}` }),
      ),
    ),
  );
  const failed = visits.flatMap((r) => (r.ok ? [] : [r.error]));
  let lost = 0;
  let doubled = 0;
  const done = visits.flatMap((r) => (r.ok ? [r.v] : []));
  done.forEach((v, i) => {
    const { content, done: ended } = contentOf(v.text);
    if (content === GENERIC_REPLY && ended) return;
    if (content.length < GENERIC_REPLY.length || !ended) lost++;
    else doubled++;
    const how = `${v.dropped ? "dropped" : "whole"} stream, ${content.length} of ${GENERIC_REPLY.length} characters`;
    failed.push(`stream ${i}: ${how}${ended ? "" : ", no [DONE]"}`);
  });
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
    allStreamingMs,
    cpu: burstCpu(away, meter, dropped.length),
  };
}

function burstCpu(away: Meter["first"][], meter: Meter, reattached: number): StormResult["cpu"] {
  const [a0, a1] = away;
  const { first, last } = meter;
  if (!a0 || !a1 || !first || !last || !reattached || a1.ms <= a0.ms || last.ms <= first.ms) return undefined;
  const backgroundShare = (a1.cpu - a0.cpu) / (a1.ms - a0.ms);
  const beyond = last.cpu - first.cpu - backgroundShare * (last.ms - first.ms);
  return { backgroundShare, perReattachMs: Math.max(0, beyond) / reattached };
}

export const stormLine = (r: StormResult) =>
  `reconnect storm: ${r.streams} streams (all streaming after ${fmt(r.allStreamingMs / 1000, 1)} s), ` +
  `${r.dropped} dropped mid-reply within ${fmt(r.burstMs, 0)} ms and ` +
  `reattached; lost ${r.lost}, doubled ${r.doubled}, ` +
  `broken ${r.failed.length - r.lost - r.doubled}; reattach (ms) p50 ` +
  `${fmt(r.reattach.p50, 1)}  p90 ${fmt(r.reattach.p90, 1)}  ` +
  `p99 ${fmt(r.reattach.p99, 1)}  max ${fmt(r.reattach.max, 1)}` +
  (r.cpu
    ? `; worker CPU ${fmt(r.cpu.backgroundShare * 100, 0)} % busy with the streams meanwhile, ` +
      `${fmt(r.cpu.perReattachMs, 2)} ms per reattachment beyond that: half the burst is about ` +
      `${fmt(halfBurstMs(r), 1)} ms of work on what the streams leave of the thread`
    : "");

/**
 * Roughly what the median reattachment of a burst arriving together waits for on one thread: half
 * the burst's own work, on what the other streams leave of the thread.
 */
export const halfBurstMs = (r: StormResult) =>
  r.cpu ? (Math.ceil(r.dropped / 2) * r.cpu.perReattachMs) / Math.max(0.05, 1 - r.cpu.backgroundShare) : NaN;
