import type { FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";
import { loadOnce } from "../load-once.ts";

export type LazyComponent<P extends object> = FunctionComponent<P> & {
  /** Starts loading now (e.g. when the agent's config says it will be needed), so it shows without a delay. */
  preload: () => Promise<void>;
};

/**
 * A component whose code is imported on first render or preload (a separate chunk), rendering the
 * fallback (nothing by default) until it arrives. Smaller than preact/compat's lazy + Suspense,
 * which the widget does not otherwise need.
 */
export function lazyComponent<P extends object>(
  load: () => Promise<FunctionComponent<P>>,
  Fallback?: FunctionComponent<P>,
): LazyComponent<P> {
  let loaded: FunctionComponent<P> | null = null;
  const preload = loadOnce(() => load().then((c) => void (loaded = c)));
  function Lazy(props: P) {
    const [, setReady] = useState(false);
    // Whether this render drew the fallback: the chunk can arrive before the effect below runs (a
    // restored conversation drawn while the preloaded chunk is on its way), and must still be drawn.
    const waiting = !loaded;
    useEffect(() => {
      if (waiting)
        preload().then(
          () => setReady(true),
          () => {},
        );
    }, []);
    const C = loaded ?? Fallback;
    return C ? <C {...props} /> : null;
  }
  return Object.assign(Lazy, { preload });
}
