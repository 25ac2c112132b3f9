import type { FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";

export type LazyComponent<P extends object> = FunctionComponent<P> & {
  /** Starts loading now (e.g. when the agent's config says it will be needed), so it shows without a delay. */
  preload: () => Promise<void>;
};

/**
 * A component whose code is imported on first render or preload (a separate chunk), rendering the
 * fallback (nothing by default) until it arrives. Smaller than preact/compat's lazy + Suspense,
 * which the widget does not otherwise need.
 */
export function lazyComponent<P extends object>(load: () => Promise<FunctionComponent<P>>, Fallback?: FunctionComponent<P>): LazyComponent<P> {
  let loaded: FunctionComponent<P> | null = null;
  let loading: Promise<void> | null = null;
  // A failed load (network) is forgotten, so the next render or preload tries again.
  const preload = () =>
    (loading ??= load().then(
      (c) => void (loaded = c),
      (e: unknown) => {
        loading = null;
        throw e;
      },
    ));
  function Lazy(props: P) {
    const [, setReady] = useState(false);
    useEffect(() => {
      if (!loaded) preload().then(() => setReady(true), () => {});
    }, []);
    const C = loaded ?? Fallback;
    return C ? <C {...props} /> : null;
  }
  return Object.assign(Lazy, { preload });
}
