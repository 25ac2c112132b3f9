import { afterEach, describe, expect, it } from "vitest";
import { createIframeBridge } from "../../../widget/embed/iframe-bridge.ts";

/**
 * The host side of the iframe embed's bridge checks origins both ways: it posts only to
 * the worker's origin (never "*"), and hears only messages from that iframe's window at that origin.
 */
type Listener = (e: { source: unknown; origin: string; data: unknown }) => void;

function setup(origin = "https://parley.example/embed/derm-consult?site=k") {
  const listeners = new Set<Listener>();
  const g = globalThis as unknown as { window?: unknown };
  g.window = {
    addEventListener: (_t: string, f: Listener) => listeners.add(f),
    removeEventListener: (_t: string, f: Listener) => listeners.delete(f),
  };
  const posted: Array<{ msg: unknown; target: string }> = [];
  const contentWindow = { postMessage: (msg: unknown, target: string) => posted.push({ msg, target }) };
  const iframe = { contentWindow, addEventListener() {}, removeEventListener() {} };
  const bridge = createIframeBridge(iframe as unknown as HTMLIFrameElement, { origin });
  const deliver = (source: unknown, from: string, data: unknown) =>
    listeners.forEach((f) => f({ source, origin: from, data }));
  return { bridge, posted, contentWindow, deliver, listeners };
}

afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
});

const OK = "https://parley.example";

describe("createIframeBridge", () => {
  it("posts only to the frame's origin, never to '*', and queues commands until the frame is ready", () => {
    const { bridge, posted, contentWindow, deliver } = setup();
    expect(posted).toEqual([{ msg: { parley: 1, cmd: "hello" }, target: OK }]);
    bridge.open();
    bridge.send("Hello");
    expect(posted).toHaveLength(1);
    deliver(contentWindow, OK, { parley: 1, event: "ready" });
    expect(posted.map((p) => p.msg)).toEqual([
      { parley: 1, cmd: "hello" },
      { parley: 1, cmd: "open" },
      { parley: 1, cmd: "send", value: "Hello" },
    ]);
    bridge.setTheme("dark");
    bridge.setIdentity(undefined);
    expect(posted.every((p) => p.target === OK)).toBe(true);
  });

  it("ignores messages from another origin or another window, and foreign shapes", () => {
    const { bridge, posted, contentWindow, deliver } = setup();
    const heard: unknown[] = [];
    bridge.on("message", (m) => heard.push(m));
    bridge.on("ready", () => heard.push("ready"));
    const message = { parley: 1, event: "message", payload: { id: "1", role: "assistant", content: "spoofed" } };
    // The right window at the wrong origin (e.g. the frame navigated elsewhere), and vice versa.
    deliver(contentWindow, "https://evil.example", { parley: 1, event: "ready" });
    deliver(contentWindow, "https://evil.example", message);
    deliver({ postMessage() {} }, OK, { parley: 1, event: "ready" });
    deliver({ postMessage() {} }, OK, message);
    deliver(null, OK, message);
    deliver(contentWindow, "null", message);
    // A look-alike origin: prefix and suffix tricks.
    deliver(contentWindow, "https://parley.example.evil.example", message);
    deliver(contentWindow, "https://parley.exampl", message);
    expect(heard).toEqual([]);
    bridge.send("queued, not sent: the frame never said ready");
    expect(posted).toHaveLength(1);
    // Wrong shapes from the right frame are not events.
    deliver(contentWindow, OK, { event: "message", payload: {} });
    deliver(contentWindow, OK, "message");
    expect(heard).toEqual([]);
    // The real frame is heard.
    deliver(contentWindow, OK, { parley: 1, event: "ready" });
    deliver(contentWindow, OK, message);
    expect(heard).toEqual(["ready", message.payload]);
  });

  it("stops listening when destroyed", () => {
    const { bridge, contentWindow, deliver, listeners } = setup();
    const heard: unknown[] = [];
    bridge.on("ready", () => heard.push("ready"));
    bridge.destroy();
    expect(listeners.size).toBe(0);
    deliver(contentWindow, OK, { parley: 1, event: "ready" });
    expect(heard).toEqual([]);
  });
});
