import { connect } from "node:net";

export interface RawStreamHooks {
  /** The request has left the client (written to the socket): the visitor's reconnect moment. */
  sent(): void;
  status(code: number): void;
  /** A decoded piece of the response body. */
  body(text: string): void;
  /** The body ended (its last chunk) or the connection closed; called once. */
  end(): void;
  error(e: Error): void;
}

/**
 * An HTTP/1.1 GET on a connection of its own, its chunked body decoded: the least a client can do.
 * The reconnect storm plays a burst of visitors from one Node thread, and node:http costs that thread
 * about 0.3 ms per request: a burst of 167 would hold the first responses back by some 50 ms of the
 * bench's own work, which each visitor's browser does on its own machine. The request is timed from
 * when it is written; the response, from when this thread reads it (its lag stays in the figure).
 */
export function rawGet(url: URL, headers: Record<string, string>, on: RawStreamHooks): () => void {
  const sock = connect(Number(url.port), url.hostname);
  sock.setNoDelay(true);
  let head = "";
  let inBody = false;
  let buf: Buffer = Buffer.alloc(0);
  let over = false;
  const finish = () => {
    if (over) return;
    over = true;
    sock.destroy();
    on.end();
  };
  const fail = (e: Error) => {
    if (over) return;
    over = true;
    sock.destroy();
    on.error(e);
  };
  const decoder = new TextDecoder();
  sock.on("connect", () => {
    let req = `GET ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
    for (const [k, v] of Object.entries(headers)) req += `${k}: ${v}\r\n`;
    sock.write(`${req}\r\n`, () => on.sent());
  });
  sock.on("data", (data: Buffer) => {
    let d = data;
    if (!inBody) {
      head += d.toString("latin1");
      const cut = head.indexOf("\r\n\r\n");
      if (cut < 0) return;
      inBody = true;
      on.status(Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0));
      if (!/\r\ntransfer-encoding: *chunked/i.test(head.slice(0, cut)))
        return fail(new Error("the response is not chunked"));
      d = Buffer.from(head.slice(cut + 4), "latin1");
    }
    buf = buf.length ? Buffer.concat([buf, d]) : d;
    // Chunks: a hex size line, the bytes, CRLF; a size of 0 ends the body.
    for (;;) {
      const nl = buf.indexOf("\r\n");
      if (nl < 0) return;
      const size = parseInt(buf.subarray(0, nl).toString("latin1"), 16);
      if (size === 0) return finish();
      if (buf.length < nl + 2 + size + 2) return;
      on.body(decoder.decode(buf.subarray(nl + 2, nl + 2 + size), { stream: true }));
      buf = buf.subarray(nl + 2 + size + 2);
    }
  });
  sock.on("error", fail);
  sock.on("close", finish);
  return () => {
    over = true;
    sock.destroy();
  };
}
