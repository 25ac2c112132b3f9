import type { ReadonlySignal } from "@preact/signals";
import { useEffect, useState } from "preact/hooks";

/**
 * A signal's value, re-rendering the component at most once per animation frame when it changes
 * while `throttle()` says so, at once otherwise. A reply streams in faster than the screen refreshes
 * (a token every millisecond or so); drawing each one costs script and layout for nothing the visitor
 * can see. Any other change (the turn's end, a card) is drawn at once, as before. Whatever else
 * re-renders the component reads the latest value too. A hidden tab draws again when it is shown.
 */
export function useFrameValue<T>(s: ReadonlySignal<T>, throttle: () => boolean): T {
  const [, redraw] = useState(0);
  useEffect(() => {
    let frame = 0;
    let first = true;
    const stop = s.subscribe(() => {
      // subscribe() calls back at once with the value this render already read.
      if (first) return void (first = false);
      if (!throttle()) return redraw((n) => n + 1);
      frame ||= requestAnimationFrame(() => {
        frame = 0;
        redraw((n) => n + 1);
      });
    });
    return () => {
      stop();
      cancelAnimationFrame(frame);
    };
  }, [s]);
  return s.peek();
}
