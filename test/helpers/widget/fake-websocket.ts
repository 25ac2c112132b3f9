/**
 * A WebSocket the test drives: it records what the page sends and opens, answers, fails or closes
 * when told. Every instance is kept in `sockets`, newest last.
 */
export function fakeWebSockets() {
  const sockets: FakeWebSocket[] = [];
  class FakeWebSocket {
    readyState = 0;
    sent: string[] = [];
    closed = false;
    onopen: (() => void) | null = null;
    onmessage: ((m: { data: string }) => void) | null = null;
    onerror: (() => void) | null = null;
    onclose: (() => void) | null = null;
    constructor(
      readonly url: string,
      readonly protocols: string[],
    ) {
      sockets.push(this);
    }
    send(data: string): void {
      this.sent.push(data);
    }
    close(): void {
      this.closed = true;
      this.readyState = 3;
    }
    open(): void {
      this.readyState = 1;
      this.onopen?.();
    }
    message(data: unknown): void {
      this.onmessage?.({ data: typeof data === "string" ? data : JSON.stringify(data) });
    }
    /** The connection broke (or never opened): error, then close, as browsers report it. */
    fail(): void {
      this.readyState = 3;
      this.onerror?.();
      this.onclose?.();
    }
    /** Frames the page sent, parsed. */
    frames(): unknown[] {
      return this.sent.map((s) => JSON.parse(s));
    }
  }
  return { sockets, WebSocket: FakeWebSocket as unknown as typeof WebSocket, last: () => sockets.at(-1)! };
}

/** A window (online/offline events, navigator.onLine) and a document (visibility) for the live socket. */
export function fakeBrowser() {
  const win = Object.assign(new EventTarget(), { navigator: { onLine: true } });
  const doc = Object.assign(new EventTarget(), { visibilityState: "visible" as DocumentVisibilityState });
  return {
    win: win as unknown as Window & { navigator: { onLine: boolean } },
    doc: doc as unknown as Document,
    setOnline(on: boolean) {
      win.navigator.onLine = on;
      win.dispatchEvent(new Event(on ? "online" : "offline"));
    },
    setVisible(visible: boolean) {
      doc.visibilityState = visible ? "visible" : "hidden";
      doc.dispatchEvent(new Event("visibilitychange"));
    },
  };
}
