import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";

/**
 * A lean streaming client for the proxy bench: node:http with a keep-alive agent (less client
 * jitter than fetch), timestamps every SSE event as it arrives. Loopback http only.
 */
export const benchAgent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 256 });

export interface StreamResult {
  status: number;
  /** performance.now() when the request was sent. */
  start: number;
  /** ms from the request's start to the first event with non-empty `delta.content`. */
  ttfb: number;
  /** ms from the request's start to the end of the response. */
  total: number;
  /** Arrival time (performance.now()) and content of every content-bearing chunk, in order. */
  contentChunks: Array<{ at: number; content: string }>;
  content: string;
  sawDone: boolean;
  /** The body, when the answer was not a 200 event stream (for error reports). */
  errorBody?: string;
  /** An in-band `{ "error": ... }` event (some providers report a failure mid-stream this way). */
  inbandError?: string;
}

export function streamChat(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  timeoutMs = 30_000,
): Promise<StreamResult> {
  const payload = JSON.stringify(body);
  const u = new URL(url);
  const start = performance.now();
  let resolve!: (r: StreamResult) => void;
  let reject!: (e: unknown) => void;
  const done = new Promise<StreamResult>((res, rej) => ((resolve = res), (reject = rej)));
  send(true);
  return done;

  function send(mayResend: boolean): void {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method: "POST",
        agent: benchAgent,
        headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const result: StreamResult = {
          status,
          start,
          ttfb: NaN,
          total: NaN,
          contentChunks: [],
          content: "",
          sawDone: false,
        };
        res.setEncoding("utf8");
        let buf = "";
        let raw = "";
        const ok = status === 200 && String(res.headers["content-type"]).startsWith("text/event-stream");
        res.on("data", (part: string) => {
          const at = performance.now();
          if (!ok) {
            raw += part;
            return;
          }
          buf += part;
          let cut: number;
          while ((cut = buf.search(/\r?\n\r?\n/)) >= 0) {
            const event = buf.slice(0, cut);
            buf = buf.slice(buf[cut] === "\r" ? cut + 4 : cut + 2);
            for (const line of event.split(/\r?\n/)) {
              if (!line.startsWith("data:")) continue;
              const data = line.slice(5).trimStart();
              if (data === "[DONE]") {
                result.sawDone = true;
                continue;
              }
              let content: string | undefined;
              try {
                const parsed = JSON.parse(data);
                if (parsed?.error) result.inbandError ??= JSON.stringify(parsed.error).slice(0, 300);
                content = parsed?.choices?.[0]?.delta?.content ?? undefined;
              } catch {
                /* not JSON: ignore */
              }
              if (content) {
                if (Number.isNaN(result.ttfb)) result.ttfb = at - start;
                result.contentChunks.push({ at, content });
                result.content += content;
              }
            }
          }
        });
        res.on("end", () => {
          result.total = performance.now() - start;
          if (!ok) result.errorBody = raw.slice(0, 500);
          resolve(result);
        });
        res.on("error", reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`Request timed out after ${timeoutMs} ms: POST ${url}`)));
    req.setNoDelay(true);
    req.on("error", (err: NodeJS.ErrnoException) => {
      // A kept-alive socket the server closed meanwhile (workerd closes the connection of a response
      // it had to end early): sent again once on a new socket, as browsers do. Timed from the first send.
      if (mayResend && req.reusedSocket && err.code === "ECONNRESET") send(false);
      else reject(err);
    });
    req.end(payload);
  }
}

export async function postJson<T>(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; json: T }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json: T;
  try {
    json = JSON.parse(text) as T;
  } catch {
    throw new Error(`POST ${url} answered ${res.status} with non-JSON: ${text.slice(0, 300)}`);
  }
  return { status: res.status, json };
}
