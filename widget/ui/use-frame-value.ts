import type { ReadonlySignal } from "@preact/signals";
import { useEffect, useState } from "preact/hooks";

/**
 * While a reply streams, the least time between two drawings of it. A reply streams in far faster
 * than anyone reads (a token every millisecond or so); each drawing costs script, style, layout and
 * paint, and at every frame that work keeps a loaded main thread busy enough that the last words
 * show hundreds of ms after they arrive. 20 drawings a second still reads as a smooth
 * stream, and the end of a reply is drawn at once (it is not throttled).
 */
const STREAM_MS = 50;

/**
 * `value()`, re-rendering the component when `changes` changes: at once, or while `throttle()` says so
 * at most once per STREAM_MS, on an animation frame. `changes` should be cheap to keep up to date (it
 * is computed on every change); `value` is only read when drawn. Whatever else re-renders the
 * component reads the latest value too. A hidden tab draws again when it is shown.
 */
export function useFrameValue<T>(changes: ReadonlySignal<unknown>, value: () => T, throttle: () => boolean): T {
  const [, redraw] = useState(0);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let frame = 0;
    let last = 0;
    let first = true;
    const draw = () => {
      timer = undefined;
      frame = requestAnimationFrame(() => {
        frame = 0;
        last = performance.now();
        redraw((n) => n + 1);
      });
    };
    const stop = changes.subscribe(() => {
      // subscribe() calls back at once with the value this render already read.
      if (first) return void (first = false);
      if (!throttle()) return redraw((n) => n + 1);
      if (timer !== undefined || frame) return;
      const wait = last + STREAM_MS - performance.now();
      if (wait > 0) timer = setTimeout(draw, wait);
      else draw();
    });
    return () => {
      stop();
      clearTimeout(timer);
      cancelAnimationFrame(frame);
    };
  }, [changes]);
  return value();
}
