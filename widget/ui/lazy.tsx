import type { FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";

/**
 * A component whose code is imported on first render (a separate chunk), rendering nothing until
 * it arrives. Smaller than preact/compat's lazy + Suspense, which the widget does not otherwise need.
 */
export function lazyComponent<P extends object>(load: () => Promise<FunctionComponent<P>>): FunctionComponent<P> {
  let loaded: FunctionComponent<P> | null = null;
  let loading: Promise<void> | null = null;
  return function Lazy(props: P) {
    const [, setReady] = useState(false);
    useEffect(() => {
      if (!loaded) (loading ??= load().then((c) => void (loaded = c))).then(() => setReady(true));
    }, []);
    const C = loaded;
    return C ? <C {...props} /> : null;
  };
}
